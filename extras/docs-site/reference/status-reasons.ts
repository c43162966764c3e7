/** The reason phrase of each status this server answers with [RFC 9110 §15], for the page's headings and the console's status line. */
export const STATUS_REASONS: Readonly<Record<string, string>> = {
  200: 'OK',
  201: 'Created',
  204: 'No Content',
  302: 'Found',
  304: 'Not Modified',
  400: 'Bad Request',
  401: 'Unauthorized',
  404: 'Not Found',
  405: 'Method Not Allowed',
  408: 'Request Timeout',
  409: 'Conflict',
  413: 'Content Too Large',
  415: 'Unsupported Media Type',
  417: 'Expectation Failed',
  422: 'Unprocessable Content',
  431: 'Request Header Fields Too Large',
  500: 'Internal Server Error',
  501: 'Not Implemented',
  503: 'Service Unavailable',
  507: 'Insufficient Storage',
};

/** A status with its reason phrase: `201 Created`. */
export function statusLine(status: string): string {
  const reason = STATUS_REASONS[status];
  return reason === undefined ? status : `${status} ${reason}`;
}
