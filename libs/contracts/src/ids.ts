import { z } from 'zod';

/** Organization ids, wherever they appear: subjects, messages, paths. */
export const ORG_ID = /^[A-Za-z0-9_-]{1,64}$/;
export const orgIdSchema = z.string().regex(ORG_ID);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids that are not UUIDs name nothing (and must never reach a uuid cast). */
export const isUuid = (text: string) => UUID.test(text);
