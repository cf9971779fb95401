declare module 'parse-prometheus-text-format' {
  /** Parses the Prometheus text exposition format into prom2json-shaped families. */
  export default function parsePrometheusTextFormat(text: string): unknown[];
}
