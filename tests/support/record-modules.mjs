// Loaded with `node --import`: appends the URL of every module the process resolves to the file
// named by RECORD_MODULES (one per line), so a test can tell which packages a server loaded.
import { register } from 'node:module';

register(
  'data:text/javascript,' +
    encodeURIComponent(`
import fs from 'node:fs';
export async function resolve(specifier, context, next) {
  const resolved = await next(specifier, context);
  if (process.env.RECORD_MODULES) fs.appendFileSync(process.env.RECORD_MODULES, resolved.url + '\\n');
  return resolved;
}`),
);
