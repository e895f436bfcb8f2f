/** Who is calling a management route, from their session. */
export interface CurrentAdminInfo {
  adminId: string;
  orgId: string;
  email: string;
  /** The session the token belongs to (for logout). */
  sessionId: string;
}
