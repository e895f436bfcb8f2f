/** One register value (meter index) of one channel at one instant. */
export interface Reading {
  /** epoch ms */
  readAt: number;
  /** cumulative register value, >= 0 */
  value: number;
}
