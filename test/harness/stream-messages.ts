/** Every message in a stream, oldest first, read with an ordered consumer. */
export async function streamMessages(natsUrl: string, stream: string): Promise<{ subject: string; data: string; msgId?: string; headers: string }[]> {
  const { connectNats } = await import('@meter/messaging');
  const { jetstream, jetstreamManager } = await import('@nats-io/jetstream');
  const nc = await connectNats(natsUrl, 'test-reader');
  try {
    const info = await (await jetstreamManager(nc)).streams.info(stream);
    const total = info.state.messages;
    const out: { subject: string; data: string; msgId?: string; headers: string }[] = [];
    if (total === 0) return out;
    const consumer = await jetstream(nc).consumers.get(stream);
    const messages = await consumer.fetch({ max_messages: total, expires: 5000 });
    for await (const m of messages) {
      const headers = m.headers ? [...m.headers.keys()].map((k) => `${k}: ${m.headers!.get(k)}`).join('\n') : '';
      out.push({ subject: m.subject, data: m.string(), msgId: m.headers?.get('Nats-Msg-Id'), headers });
      if (out.length >= total) break;
    }
    return out;
  } finally {
    await nc.close();
  }
}
