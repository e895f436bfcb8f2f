import { applyDecorators } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiQuery, type SchemaObject } from '@nestjs/swagger';
import { RATE_LIMIT_STATE } from '../read-model/request-params.openapi';
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE } from './page-size';

const PAGE_SIZE: SchemaObject = { type: 'integer', minimum: 1, maximum: MAX_PAGE_SIZE, default: DEFAULT_PAGE_SIZE };
const NEXT_TOKEN: SchemaObject = {
  type: ['string', 'null'],
  description: 'Opaque token of the next page; null on the last page.',
};

/** Contract 5: shapes A and B of spec 2.2 in one object. */
const DEVICE_LIST: SchemaObject = {
  type: 'object',
  required: ['rows', 'has_more', 'next_page_token', 'devices', 'next_cursor'],
  properties: {
    rows: {
      type: 'array',
      description: 'Shape A.',
      items: {
        type: 'object',
        required: ['id', 'name'],
        properties: { id: { type: 'integer', minimum: 1 }, name: { type: 'string' } },
      },
    },
    has_more: { type: 'boolean' },
    next_page_token: NEXT_TOKEN,
    devices: {
      type: 'array',
      description: 'Shape B: the same devices, in the same order.',
      items: {
        type: 'object',
        required: ['device_id', 'activated_at', 'channels'],
        properties: {
          device_id: { type: 'string', pattern: '^[1-9][0-9]*$', description: 'The id of `rows[].id`, as a string.' },
          activated_at: { type: 'string', format: 'date-time', description: 'ISO 8601 UTC with milliseconds.' },
          channels: { type: 'integer', minimum: 1 },
        },
      },
    },
    next_cursor: { ...NEXT_TOKEN, description: 'Equals `next_page_token`.' },
  },
};

export const ApiDeviceList = () =>
  applyDecorators(
    ApiOperation({
      summary: "List the organization's devices",
      description: 'One page of devices ordered by id, in both list shapes of spec 2.2 (rows/has_more/next_page_token and devices/next_cursor).',
    }),
    ApiQuery({
      name: 'limit',
      required: false,
      description: `Page size 1..${MAX_PAGE_SIZE}; wins over \`ipp\`. Default ${DEFAULT_PAGE_SIZE}.`,
      schema: PAGE_SIZE,
    }),
    ApiQuery({
      name: 'ipp',
      required: false,
      description: `Items per page 1..${MAX_PAGE_SIZE}, when \`limit\` is absent. Default ${DEFAULT_PAGE_SIZE}.`,
      schema: PAGE_SIZE,
    }),
    ApiQuery({
      name: 'next_page_token',
      required: false,
      description: 'The `next_page_token` (or `next_cursor`) of the previous page; a forged or foreign token -> 400.',
      schema: { type: 'string', minLength: 1 },
    }),
    ApiOkResponse({ headers: RATE_LIMIT_STATE, description: 'A page of devices.', schema: DEVICE_LIST }),
  );
