import type { IncomingMessage, RequestListener, ServerResponse } from 'node:http';

const MAX_CLOCK_SKEW_SECONDS = 5 * 60;

/**
 * In front of Bolt's HTTP receiver. Bolt refuses a request timestamped more than five minutes in the
 * past but not one from the future, and a signed request dated ahead could be replayed until then:
 * it gets the same 401.
 */
export function refuseFutureRequests(next: RequestListener, now: () => number): RequestListener {
  return (request: IncomingMessage, response: ServerResponse) => {
    const timestamp = Number(request.headers['x-slack-request-timestamp']);
    if (timestamp > Math.floor(now() / 1_000) + MAX_CLOCK_SKEW_SECONDS) {
      response.writeHead(401).end();
      request.resume();
      return;
    }
    next(request, response);
  };
}
