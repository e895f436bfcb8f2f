import type { DataSource } from 'typeorm';
import { appendEvents, assertUpdated } from '../events/event-store';
import { newEvent } from '../events/new-event';

/** The admin can no longer log in and every open session of theirs ends now. */
export async function deactivateAdmin(dataSource: DataSource, adminId: string): Promise<boolean> {
  return dataSource.transaction(async (manager) => {
    const [admin] = (await manager.query('SELECT org_id, version, active FROM auth.admins WHERE id = $1', [adminId])) as {
      org_id: string;
      version: number;
      active: boolean;
    }[];
    if (!admin?.active) return false;
    const at = new Date();
    assertUpdated(
      await manager.query('UPDATE auth.admins SET active = false, version = version + 1 WHERE id = $1 AND version = $2', [adminId, admin.version]),
      adminId,
    );
    const sessions = (await manager.query(
      'UPDATE auth.sessions SET ended_at = $2, version = version + 1 WHERE admin_id = $1 AND ended_at IS NULL AND expires_at > $2 RETURNING id, version',
      [adminId, at],
    )) as [{ id: string; version: number }[], number];
    await appendEvents(manager, [
      newEvent('admin.deactivated', { aggregateId: adminId, orgId: admin.org_id, version: admin.version + 1 }, { admin_id: adminId }, at),
      ...sessions[0].map((s) =>
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
