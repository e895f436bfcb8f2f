/** The largest uplink collectors take, over HTTP (413 beyond) and MQTT (the connection closes); NATS carries 1 MB at most. */
export const UPLINK_MAX_BYTES = 1024 * 1024;
