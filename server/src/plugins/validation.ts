// Schema compilers: JSON bodies are checked with strict types, query strings and path parameters
// keep Ajv's coercion (a query string holds only text, and product-spec section 5 asks for
// numbers such as kValue and page to be read from it). One Ajv set-up for both would either
// refuse every numeric query parameter or turn {"report_instruction": 123} into "123".
import { AjvCompiler } from '@fastify/ajv-compiler';
import type { FastifyServerOptions } from 'fastify';

const ajvOptions = { removeAdditional: false, coerceTypes: 'array', allErrors: true } as const;

type Pool = ReturnType<typeof AjvCompiler>;
type ExternalSchemas = Parameters<Pool>[0];
// The pool's typing names only the schema argument; at run time it takes the route definition
// Fastify passes, with its httpPart (@fastify/ajv-compiler lib/validator-compiler.js).
type Compile = (route: { httpPart?: string }) => unknown;

function buildValidator(externalSchemas: ExternalSchemas): Compile {
  const pool = AjvCompiler();
  const lenient = pool(externalSchemas, { customOptions: ajvOptions }) as unknown as Compile;
  const strict = pool(externalSchemas, {
    customOptions: { ...ajvOptions, coerceTypes: false },
  }) as unknown as Compile;
  return (route) => (route.httpPart === 'body' ? strict : lenient)(route);
}

export const schemaController: FastifyServerOptions['schemaController'] = {
  compilersFactory: { buildValidator: buildValidator as unknown as Pool },
};
