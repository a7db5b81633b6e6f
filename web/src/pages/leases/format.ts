// How lease times read: the server's clock decides, so times are shown as it gave them.

/** Unix seconds as a local clock time with seconds. */
export function clockTime(unixSeconds: number): string {
  return new Date(unixSeconds * 1000).toLocaleTimeString(undefined, { hour12: false });
}

export function seconds(ms: number): string {
  return `${(ms / 1000).toFixed(1)} s`;
}
