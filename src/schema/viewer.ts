// Who the caller is, as this API reads their token: an app signed in through an identity provider
// cannot tell from the token alone (the user claim, a prefix, the roles' path are our settings).
import { Field, Float, ID, ObjectType } from 'type-graphql';

@ObjectType({
  description: "The caller as this API reads their token: the user id every operation acts as, and the caller's roles.",
})
export class Viewer {
  @Field(() => ID, { description: "The caller's user id (the provider's user claim, after its `userPrefix`)." })
  userId!: string;

  @Field({ description: 'A service caller (by role, or a client-credentials token of a service client).' })
  service!: boolean;

  @Field(() => [String], { description: 'The roles the token carries, as this API reads them.' })
  roles!: string[];

  @Field(() => Float, {
    nullable: true,
    description: 'When the token stops being accepted, epoch milliseconds; null for a token without expiry.',
  })
  expiresAt!: number | null;

  @Field(() => String, {
    nullable: true,
    description: "The issuer of a provider's token; null for a token signed with this API's own secret.",
  })
  issuer!: string | null;
}
