// The signed-in caller, so an app shows and acts as the user id this API gives them.
import { Authorized, Ctx, Query, Resolver } from 'type-graphql';
import { callerPrincipal, type GraphQLContext } from '../schema/context';
import { Viewer } from '../schema/viewer';

@Resolver()
export class ViewerResolver {
  @Authorized()
  @Query(() => Viewer, { description: 'The signed-in caller, as this API reads their token.' })
  viewer(@Ctx() context: GraphQLContext): Viewer {
    const principal = callerPrincipal(context);
    return {
      userId: principal.userId,
      service: principal.isService,
      roles: [...principal.roles],
      expiresAt: principal.expiresAt ?? null,
      issuer: principal.source?.issuer ?? null,
    };
  }
}
