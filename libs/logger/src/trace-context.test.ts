import { continueTrace, currentOrigin, inTraceOf, parseTraceparent, traceHeaders } from './trace-context';

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';

describe('W3C trace context', () => {
  it('when a traceparent is valid, then its trace id, parent id and flags are read; malformed, version ff or all-zero ids are not one', () => {
    expect([
      parseTraceparent(`00-${TRACE_ID}-00f067aa0ba902b7-01`),
      parseTraceparent(`01-${TRACE_ID}-00f067aa0ba902b7-00-future-fields`),
      parseTraceparent(`00-${TRACE_ID}-00f067aa0ba902b7-01-extra`),
      parseTraceparent(`ff-${TRACE_ID}-00f067aa0ba902b7-01`),
      parseTraceparent(`00-${'0'.repeat(32)}-00f067aa0ba902b7-01`),
      parseTraceparent(`00-${TRACE_ID}-${'0'.repeat(16)}-01`),
      parseTraceparent(`00-${TRACE_ID.toUpperCase()}-00f067aa0ba902b7-01`),
      parseTraceparent(undefined),
    ]).toEqual([
      { traceId: TRACE_ID, parentId: '00f067aa0ba902b7', flags: '01' },
      { traceId: TRACE_ID, parentId: '00f067aa0ba902b7', flags: '00' },
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
      undefined,
    ]);
  });

  it('when work continues a trace, then it keeps the trace id and flags under a span of its own; without one it starts a sampled trace', () => {
    const continued = continueTrace({ traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-00`, requestId: 'r-1' });
    const started = continueTrace({ traceparent: 'garbage' });

    expect(continued).toEqual({ traceId: TRACE_ID, spanId: expect.stringMatching(/^[0-9a-f]{16}$/), flags: '00', requestId: 'r-1' });
    expect(continued.spanId).not.toBe('00f067aa0ba902b7');
    expect(started).toEqual({ traceId: expect.stringMatching(/^[0-9a-f]{32}$/), spanId: expect.stringMatching(/^[0-9a-f]{16}$/), flags: '01' });
  });

  it('when code runs in a trace, then what it stores and sends names the trace with its own span as parent; outside, nothing', async () => {
    const inside = await inTraceOf({ traceparent: `00-${TRACE_ID}-00f067aa0ba902b7-01`, requestId: 'r-2' }, async () => {
      await new Promise((resolve) => setImmediate(resolve));
      return { origin: currentOrigin(), headers: traceHeaders() };
    });

    expect(inside.origin).toEqual({ traceparent: expect.stringMatching(new RegExp(`^00-${TRACE_ID}-[0-9a-f]{16}-01$`)), requestId: 'r-2' });
    expect(inside.headers).toEqual({ traceparent: inside.origin.traceparent });
    expect([currentOrigin(), traceHeaders()]).toEqual([{ traceparent: null, requestId: null }, {}]);
  });

  it('when many spans start, then every trace and span id is new and well formed, also across refills of the random pool', () => {
    const traces = Array.from({ length: 1000 }, () => continueTrace());
    expect(new Set(traces.map((trace) => trace.traceId)).size).toBe(1000);
    expect(new Set(traces.map((trace) => trace.spanId)).size).toBe(1000);
    expect(traces.every((trace) => /^[0-9a-f]{32}$/.test(trace.traceId) && /^[0-9a-f]{16}$/.test(trace.spanId))).toBe(true);
  });
});
