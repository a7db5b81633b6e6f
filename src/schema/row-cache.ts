// GraphQL types of the row cache: copies of database rows kept fresh in Redis by a daemon.
import { ArgsType, Field, Float, ID, Int, ObjectType } from 'type-graphql';
import { CATCH_UP_FIELD } from './topics';

const TIME = "Unix seconds (millisecond precision) by the Redis server's clock.";
const ROW_ID =
  "The row's key as PostgreSQL prints it (`7`, not `007`): 1 to 128 characters, no control or text-direction characters.";

@ObjectType({ description: 'A row the daemon copies from the database into Redis.' })
export class ScheduledRow {
  @Field(() => ID)
  rowId!: string;

  @Field(() => Float, { description: 'How often it is read again, in seconds.' })
  delaySeconds!: number;

  @Field(() => Float, { description: `When it is read next. ${TIME}` })
  nextRefreshAt!: number;

  @Field(() => Float, {
    nullable: true,
    description: `When it was last read from the database (found or not); null until the first time. ${TIME}`,
  })
  lastRefreshedAt?: number | null;
}

@ObjectType({ description: "Tells that a row's cached copy changed; read it with `cachedRow(rowId)`." })
export class RowCacheUpdate {
  @Field(() => ID)
  rowId!: string;

  @Field(() => Float, { description: TIME })
  changedAt!: number;

  @Field({ description: 'Whether a copy exists now: false when the row left the database or was unscheduled.' })
  cached!: boolean;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ArgsType()
export class ScheduleRowCacheArgs {
  @Field(() => ID, { description: ROW_ID })
  rowId!: string;

  @Field(() => Float, {
    description:
      'Read the row again this often, in seconds: 0.05 to ROW_CACHE_MAX_DELAY_SECONDS (ms precision). 0 or less stops caching it and deletes its copy (down to minus ROW_CACHE_MAX_DELAY_SECONDS).',
  })
  delaySeconds!: number;
}

@ArgsType()
export class RowIdArgs {
  @Field(() => ID, { description: ROW_ID })
  rowId!: string;
}

@ArgsType()
export class CachedRowsArgs {
  @Field(() => [ID], { description: `0 to 100 row ids, each: ${ROW_ID}` })
  rowIds!: string[];
}

@ArgsType()
export class RowCacheScheduleArgs {
  @Field(() => Int, { defaultValue: 100, description: 'Page size, 1 to 1000.' })
  first!: number;

  @Field(() => ID, {
    nullable: true,
    description: 'Return rows after this row id (the last one of the previous page); ids are in byte order.',
  })
  after?: string | null;
}
