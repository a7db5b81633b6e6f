// Writes docs/configuration.md from the declared settings, or with --check fails when the
// committed file differs (`npm test` runs the check, as it does for schema.graphql).
import { runConfigDocs } from './config-docs';

const { code, message } = runConfigDocs(process.argv.slice(2));
if (code === 0) console.log(message);
else console.error(message);
process.exitCode = code;
