import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api/client';
import { ApiError, describeError, fieldErrorsFor } from '../api/problem';
import { Field, FormError } from '../components/field';
import { ErrorMessage, Loading } from '../components/states';

interface DeviceRadioIds {
  device_id: number;
  external_ids: { dev_eui: string | null; wmbus_id: string | null };
}

const FIELDS = ['dev_eui', 'wmbus_id'] as const;

/**
 * A device's radio ids (docs/collectors.md, "Registering radio ids"): what collectors match
 * ChirpStack / The Things Stack uplinks (DevEUI) and wmbusmeters telegrams (wM-Bus id) by.
 * An empty field removes the id; the server's messages appear beside the field they name.
 */
export function DeviceRadioIdsPanel({ id }: { id: string }) {
  const queryClient = useQueryClient();
  const key = ['device', id];
  const device = useQuery({ queryKey: key, queryFn: () => api<DeviceRadioIds>('GET', `/devices/${id}`) });
  const [draft, setDraft] = useState<{ dev_eui: string; wmbus_id: string } | null>(null);
  const save = useMutation({
    mutationFn: (ids: { dev_eui: string; wmbus_id: string }) =>
      api<DeviceRadioIds>('PATCH', `/devices/${id}`, { external_ids: { dev_eui: ids.dev_eui.trim() || null, wmbus_id: ids.wmbus_id.trim() || null } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(key, saved);
      setDraft(null);
      void queryClient.invalidateQueries({ queryKey: ['devices'] });
    },
  });
  const errors = save.error instanceof ApiError && save.error.errors.length ? fieldErrorsFor(save.error.errors, FIELDS, 'external_ids.') : {};
  const general = save.error && !(save.error instanceof ApiError && save.error.errors.length) ? describeError(save.error) : errors[''];
  const shown = draft ?? { dev_eui: device.data?.external_ids.dev_eui ?? '', wmbus_id: device.data?.external_ids.wmbus_id ?? '' };

  return (
    <section className="panel" aria-labelledby="radio-ids-heading">
      <h2 id="radio-ids-heading">External ids</h2>
      {device.isPending ? (
        <Loading what="the radio ids" />
      ) : device.isError ? (
        <ErrorMessage error={device.error} retry={() => void device.refetch()} />
      ) : (
        <form
          className="inline"
          aria-label="External ids"
          onSubmit={(e) => {
            e.preventDefault();
            save.mutate(shown);
          }}
        >
          <Field label="DevEUI" error={errors.dev_eui} hint="LoRaWAN: 16 hex digits. Empty: none.">
            {(props) => <input {...props} value={shown.dev_eui} spellCheck={false} onChange={(e) => setDraft({ ...shown, dev_eui: e.target.value })} />}
          </Field>
          <Field label="wM-Bus id" error={errors.wmbus_id} hint="wM-Bus: 8 digits. Empty: none.">
            {(props) => (
              <input
                {...props}
                value={shown.wmbus_id}
                inputMode="numeric"
                spellCheck={false}
                onChange={(e) => setDraft({ ...shown, wmbus_id: e.target.value })}
              />
            )}
          </Field>
          <button type="submit" disabled={save.isPending}>
            Save external ids
          </button>
          <FormError message={general} />
          {save.isSuccess && !draft && (
            <p className="meta" role="status">
              Saved: uplinks with these ids now reach this device.
            </p>
          )}
        </form>
      )}
    </section>
  );
}
