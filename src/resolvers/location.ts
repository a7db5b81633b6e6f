// Location analytics: IP lookups, appending log lines, and visits by day and place. Reads of
// counts are for any signed-in caller; ingestion, uploads' progress and retention for service
// callers. Bulk files come in
// over HTTP (transports/log-upload.ts); this appends the few lines of a live tail.
import { isIP } from 'node:net';
import { Args, Authorized, Ctx, Mutation, Query, Resolver, Root, Subscription } from 'type-graphql';
import { SERVICE_ROLE } from '../security/auth';
import type { LocationConfig } from '../config';
import { badInput, notFound } from '../common/errors';
import { intInRange, validName } from '../common/validation';
import type { GraphQLContext } from '../schema/context';
import { isDay } from '../geo/tally';
import type { IpLocator } from '../geo/ip-locator';
import { dayNumber, dayOf, type LocationRepository, type PlaceLevel } from '../redis/location/repository';
import { appendWhenRoom } from '../redis/location/backpressure';
import {
  AppendLinesArgs,
  CreateDatasetArgs,
  DatasetArgs,
  DaysArgs,
  DayVisits,
  ForgetDaysArgs,
  IpLocation,
  IpLocationArgs,
  LocationAppend,
  LocationTotals,
  LocationTotalsChange,
  LocationUpload,
  LocationUploadChange,
  PlaceVisits,
  PlaceVisitsArgs,
  RangeArgs,
  TopArgs,
  TopCitiesArgs,
  TopRegionsArgs,
  UploadArgs,
} from '../schema/location';
import {
  isCatchUp,
  TOPICS,
  uploadTopicId,
  type CatchUpNotice,
  type LocationTotalsNotice,
  type LocationUploadNotice,
} from '../schema/topics';

const MAX_TOP = 1000;
const MAX_FORGET_DAYS = 366;
const MAX_DAYS_LISTED = 10_000;
const MAX_PLACE_LENGTH = 200;
const MAX_LINE_LENGTH = 4095;
// eslint-disable-next-line no-control-regex -- what is refused here
const CONTROL = /[\u0000-\u001f\u007f]/;

function validDay(value: string, argument: string): string {
  if (!isDay(value)) throw badInput(`${argument} must be a date YYYY-MM-DD from 1970 to 2099`, argument);
  return value;
}

function validCountry(value: string, argument = 'country'): string {
  const code = value.toUpperCase();
  if (!/^[A-Z]{2}$/.test(code)) throw badInput(`${argument} must be a two-letter country code`, argument);
  return code;
}

/** Region and city names come from the IP database: any text but control characters, bounded. */
function validPlaceName(value: string, argument: string): string {
  const name = value.normalize('NFC');
  if ([...name].length > MAX_PLACE_LENGTH || CONTROL.test(name)) {
    throw badInput(`${argument} must be at most ${MAX_PLACE_LENGTH} characters, without control characters`, argument);
  }
  return name;
}

@Resolver()
export class LocationResolver {
  constructor(
    private readonly repository: LocationRepository,
    private readonly settings: LocationConfig,
    private readonly locator: () => IpLocator,
  ) {}

  @Authorized()
  @Query(() => IpLocation, {
    nullable: true,
    description:
      'The place of an IPv4 or IPv6 address; null when unknown. Data: IP Geolocation by DB-IP (https://db-ip.com, CC BY 4.0), unless LOCATION_DB names another database.',
  })
  ipLocation(@Args() { ip }: IpLocationArgs): IpLocation | null {
    if (ip.length > 64 || isIP(ip) === 0 || ip.includes('%'))
      throw badInput('ip must be an IPv4 or IPv6 address', 'ip');
    return this.locator().lookup(ip);
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => Boolean, { description: 'Creates a dataset; false when it exists already. Service callers only.' })
  async createLocationDataset(@Args() { name }: CreateDatasetArgs): Promise<boolean> {
    const dataset = validName(name, 'name');
    if (
      !(await this.repository.exists(dataset)) &&
      (await this.repository.datasetCount()) >= this.settings.maxDatasets
    ) {
      throw badInput(`there are LOCATION_MAX_DATASETS (${this.settings.maxDatasets}) datasets already`, 'name');
    }
    return this.repository.createDataset(dataset);
  }

  @Authorized()
  @Query(() => [String], { description: 'Every dataset, by name.' })
  async locationDatasets(): Promise<string[]> {
    return this.repository.datasets();
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => LocationAppend, {
    description:
      'Appends log lines to an upload (a live tail), from `fromLine`; a retried call adds nothing twice. ' +
      'Waits while the dataset holds LOCATION_MAX_HELD_BYTES. Service callers only.',
  })
  async appendLocationLines(
    @Args() { dataset, upload, fromLine, lines, complete }: AppendLinesArgs,
    @Ctx() context: GraphQLContext,
  ): Promise<LocationAppend> {
    const name = validName(dataset, 'dataset');
    const id = validName(upload, 'upload');
    intInRange(fromLine, 'fromLine', 0, Number.MAX_SAFE_INTEGER);
    if (lines.length > this.settings.maxAppendLines) {
      throw badInput(`lines must hold at most ${this.settings.maxAppendLines} lines`, 'lines');
    }
    if (lines.length === 0 && !complete) throw badInput('lines must not be empty (unless complete is true)', 'lines');
    for (const line of lines) {
      if (line.includes('\n')) throw badInput('a line must not hold a newline', 'lines');
      if (line.length > MAX_LINE_LENGTH)
        throw badInput(`a line must be at most ${MAX_LINE_LENGTH} characters`, 'lines');
    }
    const chunk = lines.length === 0 ? undefined : { data: Buffer.from(lines.join('\n') + '\n'), lines: lines.length };
    const result = await appendWhenRoom(
      this.repository,
      [name, id, fromLine, chunk, complete],
      Math.min(this.settings.maxWaitForRoomMs, 10_000),
      context.signal,
    );
    return { lines: result.lines, stored: result.status === 'OK' && chunk !== undefined, complete: result.complete };
  }

  // Service callers only: refused samples are lines of the company's logs.
  @Authorized(SERVICE_ROLE)
  @Query(() => LocationUpload, {
    nullable: true,
    description: "An upload's progress; null when there is none. Service callers only.",
  })
  async locationUpload(@Args() { dataset, upload }: UploadArgs): Promise<LocationUpload | null> {
    const progress = await this.repository.upload(validName(dataset, 'dataset'), validName(upload, 'upload'));
    if (!progress) return null;
    return {
      ...progress,
      done: progress.complete && progress.doneChunks === progress.chunks,
      created: progress.created / 1000,
      refusedSamples: progress.samples,
    };
  }

  @Authorized()
  @Query(() => [String], { description: 'Days that have counts, oldest first.' })
  async locationDays(@Args() { dataset, from, to, limit }: DaysArgs): Promise<string[]> {
    const count = intInRange(limit, 'limit', 1, MAX_DAYS_LISTED);
    const first = from == null ? '1970-01-01' : validDay(from, 'from');
    const last = to == null ? '2099-12-31' : validDay(to, 'to');
    return this.repository.days(await this.dataset(dataset), first, last, count);
  }

  @Authorized()
  @Query(() => LocationTotals, { description: 'Visits over a range of days.' })
  async locationTotals(@Args() args: RangeArgs): Promise<LocationTotals> {
    const { name, days } = await this.range(args);
    const totals = await this.repository.totals(name, days);
    return { days: days.length, visits: totals.visits, unknownVisits: totals.unknown };
  }

  @Authorized()
  @Query(() => [PlaceVisits], { description: 'Countries by visits over a range of days, most first.' })
  async topCountries(@Args() args: TopArgs): Promise<PlaceVisits[]> {
    return this.top(args, { level: 'country' });
  }

  @Authorized()
  @Query(() => [PlaceVisits], { description: 'Regions of a country by visits, most first.' })
  async topRegions(@Args() args: TopRegionsArgs): Promise<PlaceVisits[]> {
    return this.top(args, { level: 'region', country: validCountry(args.country) });
  }

  @Authorized()
  @Query(() => [PlaceVisits], { description: 'Cities of a region by visits, most first.' })
  async topCities(@Args() args: TopCitiesArgs): Promise<PlaceVisits[]> {
    return this.top(args, {
      level: 'city',
      country: validCountry(args.country),
      region: validPlaceName(args.region, 'region'),
    });
  }

  @Authorized()
  @Query(() => [DayVisits], {
    description: "One place's visits on every day of a range (zeros included), oldest first.",
  })
  async placeVisits(@Args() args: PlaceVisitsArgs): Promise<DayVisits[]> {
    const name = await this.dataset(args.dataset);
    const country = validCountry(args.country);
    const region = args.region == null ? undefined : validPlaceName(args.region, 'region');
    const city = args.city == null ? undefined : validPlaceName(args.city, 'city');
    if (city !== undefined && region === undefined) throw badInput('city needs region', 'city');
    const every = this.everyDay(args);
    const visits = await this.repository.series(name, { country, region, city }, every);
    return every.map((day, i) => ({ day, visits: visits[i] }));
  }

  @Authorized(SERVICE_ROLE)
  @Mutation(() => [String], {
    description: `Deletes the counts of the days before \`before\`, the oldest ${MAX_FORGET_DAYS} at most per call; returns those days (call again while it returns ${MAX_FORGET_DAYS}). Service callers only.`,
  })
  async forgetLocationDays(@Args() { dataset, before }: ForgetDaysArgs): Promise<string[]> {
    const day = validDay(before, 'before');
    return this.repository.forgetBefore(await this.dataset(dataset), day, MAX_FORGET_DAYS);
  }

  @Authorized(SERVICE_ROLE)
  @Subscription(() => LocationUploadChange, {
    description: 'Tells that an upload took a step; read it with `locationUpload`. Service callers only.',
    topics: TOPICS.locationUploadChanged.name,
    topicId: ({ args }) =>
      uploadTopicId(
        validName((args as UploadArgs).dataset, 'dataset'),
        validName((args as UploadArgs).upload, 'upload'),
      ),
  })
  async locationUploadChanged(
    @Root() change: LocationUploadNotice | CatchUpNotice,
    @Args() args: UploadArgs,
  ): Promise<LocationUploadChange> {
    if (!isCatchUp(change)) return { ...change, catchUp: false };
    // The upload's progress now, as a step would tell it (zeros for one that is gone).
    const dataset = validName(args.dataset, 'dataset');
    const upload = validName(args.upload, 'upload');
    const progress = await this.repository.upload(dataset, upload);
    const { lines, doneLines, complete } = progress ?? { lines: 0, doneLines: 0, complete: false };
    return { dataset, upload, lines, doneLines, complete, catchUp: true };
  }

  @Authorized()
  @Subscription(() => LocationTotalsChange, {
    description: "Tells that a dataset's counts for a day changed; read them with the location queries.",
    topics: TOPICS.locationTotalsChanged.name,
    topicId: ({ args }) => validName((args as DatasetArgs).dataset, 'dataset'),
  })
  locationTotalsChanged(
    @Root() change: LocationTotalsNotice | CatchUpNotice,
    @Args() args: DatasetArgs,
  ): LocationTotalsChange {
    if (!isCatchUp(change)) return { ...change, catchUp: false };
    // Any day may have changed; today (UTC) is what a client that does not know `catchUp` pulls.
    return { dataset: validName(args.dataset, 'dataset'), day: new Date().toISOString().slice(0, 10), catchUp: true };
  }

  private async top(args: TopArgs, level: PlaceLevel): Promise<PlaceVisits[]> {
    const limit = intInRange(args.limit, 'limit', 1, MAX_TOP);
    const { name, days } = await this.range(args);
    return this.repository.top(name, level, days, limit);
  }

  /** A known dataset's name; NOT_FOUND for one that does not exist. */
  private async dataset(dataset: string): Promise<string> {
    const name = validName(dataset, 'dataset');
    if (!(await this.repository.exists(name))) throw notFound('no such dataset', 'dataset');
    return name;
  }

  /** Every day from `from` to `to`, checked against LOCATION_MAX_RANGE_DAYS. */
  private everyDay(args: RangeArgs): string[] {
    const from = dayNumber(validDay(args.from, 'from'));
    const to = args.to == null ? from : dayNumber(validDay(args.to, 'to'));
    if (to < from) throw badInput('to must not be before from', 'to');
    if (to - from + 1 > this.settings.maxRangeDays) {
      throw badInput(`a range covers at most ${this.settings.maxRangeDays} days (LOCATION_MAX_RANGE_DAYS)`, 'to');
    }
    return Array.from({ length: to - from + 1 }, (_, i) => dayOf(from + i));
  }

  /** The days of the range that have counts. */
  private async range(args: RangeArgs): Promise<{ name: string; days: string[] }> {
    const name = await this.dataset(args.dataset);
    const every = this.everyDay(args);
    const days = await this.repository.days(name, every[0], every[every.length - 1], every.length);
    return { name, days };
  }
}
