import type { OpenAPIObject, OperationObject, PathItemObject, ResponseObject } from 'openapi3-ts/oas31';
import { PROBLEM_CONTENT_TYPE } from '../problem';

const METHODS = ['get', 'put', 'post', 'delete', 'options', 'head', 'patch', 'trace'] as const;

/** Each problem `code` an API document's answers show, with the statuses it comes with, in the order first seen. */
export function documentedErrorCodes(document: OpenAPIObject): Map<string, Set<number>> {
  const codes = new Map<string, Set<number>>();
  for (const item of Object.values(document.paths ?? {}) as PathItemObject[]) {
    for (const method of METHODS) {
      const operation = item[method] as OperationObject | undefined;
      for (const [status, response] of Object.entries(operation?.responses ?? {})) {
        const examples = (response as ResponseObject).content?.[PROBLEM_CONTENT_TYPE]?.examples ?? {};
        for (const example of Object.values(examples)) {
          const code = (example as { value?: { code?: unknown } }).value?.code;
          if (typeof code !== 'string') continue;
          if (!codes.has(code)) codes.set(code, new Set());
          codes.get(code)!.add(Number(status));
        }
      }
    }
  }
  return codes;
}
