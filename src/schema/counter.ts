// GraphQL types of the time-series counters.
import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, Int, ObjectType, registerEnumType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';
import { AGGREGATIONS, FILLS, type Aggregation, type Fill } from '../redis/counter';
import { enumOf } from './enums';
import { CATCH_UP_FIELD } from './topics';

const CounterAggregation = enumOf(AGGREGATIONS);
const CounterFill = enumOf(FILLS);

registerEnumType(CounterAggregation, {
  name: 'CounterAggregation',
  description:
    'Per step, over its slices of the chosen precision, a slice without a sample counting as 0: SUM of the counts; ' +
    'AVG = SUM / slices per step (step / precision); MIN and MAX of the slices; COUNT of the slices that hold a sample.',
});
registerEnumType(CounterFill, {
  name: 'CounterFill',
  description: 'Steps without any sample: ZERO answers them with the value 0, NONE leaves them out.',
});

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

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ObjectType({ description: 'One step of a counter series.' })
export class CounterPoint {
  @Field(() => GraphQLSafeInt, { description: 'Start of the step, unix seconds.' })
  time!: number;

  @Field(() => Float, { description: 'The aggregation over the step (a whole number except for AVG).' })
  value!: number;
}

@ObjectType({ description: "One counter's counts over a range, a point per step." })
export class CounterSeries {
  @Field()
  name!: string;

  @Field(() => Int, {
    description:
      'The slice length, in seconds, the points were computed from: the finest precision dividing the step whose retention reaches back to `start`, else the coarsest one dividing the step.',
  })
  precision!: number;

  @Field(() => Int, { description: 'Step length in seconds.' })
  step!: number;

  @Field(() => CounterAggregation)
  aggregation!: Aggregation;

  @Field(() => GraphQLSafeInt, { description: 'Start of the first step (a multiple of the step), unix seconds.' })
  start!: number;

  @Field(() => GraphQLSafeInt, { description: 'End of the last step (exclusive), unix seconds.' })
  end!: number;

  @Field(() => GraphQLSafeInt, {
    description:
      "Start of the oldest slice the cleanup keeps at `precision`, by the server's clock: steps before it may be incomplete.",
  })
  retainedFrom!: number;

  @Field(() => [CounterPoint], { description: 'Oldest first.' })
  points!: CounterPoint[];
}

@ArgsType()
class SeriesRangeArgs {
  @Field(() => Float, { description: 'Unix seconds; the first point is the step that holds it.' })
  from!: number;

  @Field(() => Float, {
    nullable: true,
    description:
      "Unix seconds, not before `from`; the last point is the step that holds it. Defaults to the server's clock.",
  })
  to?: number | null;

  @Field(() => Int, {
    description:
      'Step length in seconds: a multiple of a configured precision. Steps start at multiples of it (unix time). At most 10000 steps per series.',
  })
  step!: number;

  @Field(() => CounterAggregation, { defaultValue: 'SUM' })
  aggregation!: Aggregation;

  @Field(() => CounterFill, { defaultValue: 'ZERO' })
  fill!: Fill;
}

@ArgsType()
export class CounterSeriesArgs extends SeriesRangeArgs {
  @Field({ description: `Counter name: ${NAME_RULE}.` })
  name!: string;
}

@ArgsType()
export class CounterSeriesManyArgs extends SeriesRangeArgs {
  @Field(() => [String], {
    nullable: true,
    description: 'These counters (at most 50), in this order; give either names or prefix.',
  })
  names?: string[] | null;

  @Field(() => String, {
    nullable: true,
    description:
      'The known counters whose names start with this (all when empty), in byte order; give either names or prefix.',
  })
  prefix?: string | null;

  @Field(() => String, {
    nullable: true,
    description: 'With prefix: names after this one (the last name of the previous page).',
  })
  after?: string | null;

  @Field(() => Int, { defaultValue: 50, description: 'With prefix: most counters, 1 to 50.' })
  first!: number;
}

@ArgsType()
export class DeleteCounterArgs {
  @Field({ description: `Counter name: ${NAME_RULE}.` })
  name!: string;
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
      "Unix seconds to count at; defaults to the server's clock. At most COUNTER_MAX_FUTURE_SECONDS ahead of it, and within the longest retention (COUNTER_RETENTION, else COUNTER_SAMPLES) behind it.",
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
    description:
      'Return the newest `limit` samples (1 to 10000); defaults to the samples kept at this precision (COUNTER_RETENTION, else COUNTER_SAMPLES), at most 10000.',
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
