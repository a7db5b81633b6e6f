// GraphQL types of location analytics: IP lookups, log uploads and visits by place and day.
import { GraphQLSafeInt } from 'graphql-scalars';
import { ArgsType, Field, Float, Int, ObjectType } from 'type-graphql';
import { NAME_RULE } from '../common/validation';
import { CATCH_UP_FIELD } from './topics';

const DAY = '`YYYY-MM-DD` (UTC, as in the log lines)';
const EMPTY = "'' when the IP database names none";

@ObjectType({ description: 'Where an IP address is, as the IP database knows it.' })
export class IpLocation {
  @Field({ description: 'ISO 3166-1 alpha-2 country code.' })
  country!: string;

  @Field({ description: `First-level region (state, province); ${EMPTY}.` })
  region!: string;

  @Field({ description: `City; ${EMPTY}.` })
  city!: string;
}

@ObjectType({ description: 'A refused log line: its number and why; anything shaped like an address is masked.' })
export class RefusedLine {
  @Field(() => GraphQLSafeInt)
  line!: number;

  @Field({ description: 'MALFORMED, BAD_IP, BAD_DATE, BAD_TIME or TOO_LONG.' })
  reason!: string;

  @Field()
  text!: string;
}

@ObjectType({ description: 'An upload of log lines and how far it has been counted.' })
export class LocationUpload {
  @Field()
  id!: string;

  @Field(() => GraphQLSafeInt, { description: 'Lines stored: where a resumed upload starts.' })
  lines!: number;

  @Field(() => GraphQLSafeInt, { description: 'Bytes stored (after decompression).' })
  bytes!: number;

  @Field(() => GraphQLSafeInt)
  chunks!: number;

  @Field(() => GraphQLSafeInt)
  doneChunks!: number;

  @Field(() => GraphQLSafeInt, { description: 'Lines counted (refused ones included).' })
  doneLines!: number;

  @Field(() => GraphQLSafeInt, { description: 'Lines refused as malformed.' })
  refused!: number;

  @Field({ description: 'True once the sender said the upload has ended.' })
  complete!: boolean;

  @Field({ description: 'Complete, and every line counted.' })
  done!: boolean;

  @Field(() => Float, { description: 'When it began, unix seconds.' })
  created!: number;

  @Field(() => [RefusedLine], { description: 'The first refused lines (LOCATION_REFUSED_SAMPLES).' })
  refusedSamples!: RefusedLine[];
}

@ObjectType({ description: 'What an append did.' })
export class LocationAppend {
  @Field(() => GraphQLSafeInt, { description: 'Lines the upload holds now: the next fromLine.' })
  lines!: number;

  @Field({ description: 'False when these lines had been stored already (a retried call): nothing was added.' })
  stored!: boolean;

  @Field()
  complete!: boolean;
}

@ObjectType({ description: 'Visits of one place.' })
export class PlaceVisits {
  @Field({ description: `Country code, region or city; ${EMPTY}.` })
  name!: string;

  @Field(() => GraphQLSafeInt)
  visits!: number;
}

@ObjectType({ description: 'Visits on one day.' })
export class DayVisits {
  @Field({ description: DAY })
  day!: string;

  @Field(() => GraphQLSafeInt)
  visits!: number;
}

@ObjectType({ description: 'Visits over a range of days.' })
export class LocationTotals {
  @Field(() => Int, { description: 'Days in the range that have counts.' })
  days!: number;

  @Field(() => GraphQLSafeInt)
  visits!: number;

  @Field(() => GraphQLSafeInt, { description: 'Visits from addresses in no known place (counted in visits too).' })
  unknownVisits!: number;
}

@ObjectType({ description: 'An upload took a step; read it with `locationUpload`.' })
export class LocationUploadChange {
  @Field()
  dataset!: string;

  @Field()
  upload!: string;

  @Field(() => GraphQLSafeInt)
  lines!: number;

  @Field(() => GraphQLSafeInt)
  doneLines!: number;

  @Field()
  complete!: boolean;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ObjectType({ description: "A dataset's counts for a day changed; read them with the location queries." })
export class LocationTotalsChange {
  @Field()
  dataset!: string;

  @Field({ description: DAY })
  day!: string;

  @Field({ description: CATCH_UP_FIELD })
  catchUp!: boolean;
}

@ArgsType()
export class IpLocationArgs {
  @Field({ description: 'An IPv4 or IPv6 address.' })
  ip!: string;
}

@ArgsType()
export class DatasetArgs {
  @Field({ description: `Dataset name: ${NAME_RULE}.` })
  dataset!: string;
}

@ArgsType()
export class CreateDatasetArgs {
  @Field({ description: `Dataset name: ${NAME_RULE}.` })
  name!: string;
}

@ArgsType()
export class UploadArgs extends DatasetArgs {
  @Field({ description: `Upload id, chosen by the sender: ${NAME_RULE}.` })
  upload!: string;
}

@ArgsType()
export class AppendLinesArgs extends UploadArgs {
  @Field(() => GraphQLSafeInt, {
    defaultValue: 0,
    description: 'Lines the upload holds before these (0 for a new upload): a retried call is recognised by it.',
  })
  fromLine!: number;

  @Field(() => [String], { description: 'Log lines without their newlines (LOCATION_MAX_APPEND_LINES at most).' })
  lines!: string[];

  @Field({ defaultValue: false, description: 'True with the last lines: the upload has ended.' })
  complete!: boolean;
}

@ArgsType()
export class RangeArgs extends DatasetArgs {
  @Field({ description: `First day, ${DAY}.` })
  from!: string;

  @Field(() => String, { nullable: true, description: 'Last day (inclusive); `from` when unset.' })
  to?: string | null;
}

@ArgsType()
export class TopArgs extends RangeArgs {
  @Field(() => Int, { defaultValue: 10, description: 'At most this many places (1 to 1000).' })
  limit!: number;
}

@ArgsType()
export class TopRegionsArgs extends TopArgs {
  @Field({ description: 'Country code.' })
  country!: string;
}

@ArgsType()
export class TopCitiesArgs extends TopRegionsArgs {
  @Field({ description: `Region, as topRegions names it (${EMPTY}).` })
  region!: string;
}

@ArgsType()
export class PlaceVisitsArgs extends RangeArgs {
  @Field({ description: 'Country code.' })
  country!: string;

  @Field(() => String, { nullable: true, description: 'Region: unset for the whole country.' })
  region?: string | null;

  @Field(() => String, { nullable: true, description: 'City: unset for the whole region; needs region.' })
  city?: string | null;
}

@ArgsType()
export class DaysArgs extends DatasetArgs {
  @Field(() => String, { nullable: true, description: `First day (${DAY}); unset: the earliest.` })
  from?: string | null;

  @Field(() => String, { nullable: true, description: 'Last day; unset: the latest.' })
  to?: string | null;

  @Field(() => Int, { defaultValue: 366, description: 'At most this many days (1 to 10000), oldest first.' })
  limit!: number;
}

@ArgsType()
export class ForgetDaysArgs extends DatasetArgs {
  @Field({ description: `Counts of every day before this one are deleted (${DAY}).` })
  before!: string;
}
