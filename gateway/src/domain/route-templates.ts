/** The label of a path no described route matches: never the raw path, so labels stay few. */
export const UNMATCHED_ROUTE = 'unmatched';

const isParameter = (segment: string) => /^\{[^/{}]+\}$/.test(segment);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** The pattern of a path template (`/api/carts/{id}`): each `{name}` one non-empty segment. */
export function pathPattern(template: string, covers: 'exact' | 'and_beneath'): RegExp {
  const segments = template.split('/').map((segment) => (isParameter(segment) ? '[^/]+' : escape(segment)));
  return new RegExp(`^${segments.join('/')}${covers === 'exact' ? '$' : '(/|$)'}`);
}

/**
 * Finds the described route template (`/api/carts/{id}/checkout`) of a request path. A template
 * with fewer parameters wins over one with more, so `/deliveries/redeliver` is not taken for
 * `/deliveries/{eventId}`.
 */
export function routeTemplateMatcher(templates: readonly string[]): (path: string) => string {
  const compiled = templates
    .map((template) => ({ template, parameters: template.split('/').filter(isParameter).length, pattern: pathPattern(template, 'exact') }))
    .sort((a, b) => a.parameters - b.parameters);
  return (path) => compiled.find(({ pattern }) => pattern.test(path))?.template ?? UNMATCHED_ROUTE;
}
