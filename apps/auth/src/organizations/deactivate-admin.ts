import type { DataSource } from 'typeorm';
import { appendEvents, assertUpdated } from '../events/event-store';
import { newEvent } from '../events/new-event';
import { endAdminSessions } from '../sessions/session-store';
import { adminState, deactivateAdminRow } from './organization-store';

/** The admin can no longer log in and every open session of theirs ends now. */
export async function deactivateAdmin(dataSource: DataSource, adminId: string): Promise<boolean> {
  return dataSource.transaction(async (manager) => {
    const admin = await adminState(manager, adminId);
    if (!admin?.active) return false;
    const at = new Date();
    assertUpdated(await deactivateAdminRow(manager, adminId, admin.version), adminId);
    const sessions = await endAdminSessions(manager, adminId, at);
    await appendEvents(manager, [
      newEvent('admin.deactivated', { aggregateId: adminId, orgId: admin.org_id, version: admin.version + 1 }, { admin_id: adminId }, at),
      ...sessions.map((s) =>
        newEvent(
          'session.ended',
          { aggregateId: s.id, orgId: admin.org_id, version: s.version },
          { session_id: s.id, admin_id: adminId, reason: 'admin_deactivated' },
          at,
        ),
      ),
    ]);
    return true;
  });
}
