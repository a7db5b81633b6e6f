// Writes schema.graphql from the type-graphql classes, or with --check fails when the committed
// file differs (CI runs the check, so the SDL that clients and codegen see never drifts).
import 'reflect-metadata';
import fs from 'node:fs';
import path from 'node:path';
import { createLocalPubSub } from '../schema/pubsub';
import { buildAppSchema, schemaSdl } from './schema';

const SCHEMA_FILE = path.resolve(__dirname, '../../schema.graphql');

async function main(): Promise<void> {
  const sdl = schemaSdl(await buildAppSchema([], createLocalPubSub()));
  if (process.argv.includes('--check')) {
    const committed = fs.existsSync(SCHEMA_FILE) ? fs.readFileSync(SCHEMA_FILE, 'utf8') : '';
    if (committed !== sdl) {
      console.error('schema.graphql is out of date with the type-graphql classes: run `npm run schema` and commit it.');
      process.exit(1);
    }
    console.log('schema.graphql is up to date');
    return;
  }
  fs.writeFileSync(SCHEMA_FILE, sdl);
  console.log(`wrote ${SCHEMA_FILE}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
