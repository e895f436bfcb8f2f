import { z } from 'zod';
import { storableString } from '../common/storable-text';

// Login checks only the shape: rules on email and password length apply when they are set, not here.
export const loginRequest = z.strictObject({
  email: storableString().min(1).max(254),
  password: z.string().min(1).max(1024),
});
