// GraphQL types of the time-series counters.
import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';

@ObjectType({ description: 'The count of one time slice.' })
export class CounterSample {
  @Field(() => GraphQLSafeInt, { description: 'Start of the slice, unix seconds.' })
  time!: number;

  @Field(() => GraphQLSafeInt, { description: 'Sum of the counts added during the slice.' })
  count!: number;
}

@ObjectType({ description: 'A counter that has samples, with the precisions that hold them.' })
export class KnownCounter {
  @Field()
  name!: string;

  @Field(() => [Int], { description: 'Slice lengths in seconds, ascending.' })
  precisions!: number[];
}

@ObjectType({ description: 'Tells a subscriber that a counter changed; read it with `counter` for the values.' })
export class CounterUpdate {
  @Field()
  name!: string;

  @Field(() => Float, { description: 'When the update counted, unix seconds.' })
  time!: number;
}

@ArgsType()
export class UpdateCounterArgs {
  @Field({ description: `Counter name: ${NAME_RULE}.` })
  name!: string;

  @Field(() => Int, {
    defaultValue: 1,
    description: 'Added to the current slice; a non-zero integer within COUNTER_MAX_INCREMENT.',
  })
  count!: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Unix seconds to count at; defaults to the server's clock. At most COUNTER_MAX_FUTURE_SECONDS ahead of it.",
  })
  at?: number | null;
}

@ArgsType()
export class CounterArgs {
  @Field({ description: `Counter name: ${NAME_RULE}.` })
  name!: string;

  @Field(() => Int, { description: 'Slice length in seconds; one of the configured precisions.' })
  precision!: number;

  @Field(() => Int, {
    nullable: true,
    description: 'Return the newest `limit` samples (1 to 10000); defaults to COUNTER_SAMPLES.',
  })
  limit?: number | null;
}

@ArgsType()
export class CountersArgs {
  @Field(() => String, {
    nullable: true,
    description: 'Return names after this one (the last name of the previous page).',
  })
  after?: string | null;

  @Field(() => Int, { defaultValue: 100, description: 'Page size, 1 to 1000.' })
  first!: number;
}

@ArgsType()
export class CounterUpdatedArgs {
  @Field({ description: `Counter name: ${NAME_RULE}.` })
  name!: string;
}
