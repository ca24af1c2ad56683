import _ from 'lodash';
import bytes from 'bytes';

export function formatRecord(rec) {
  const picked = _.pick(rec, ['name', 'params', 'size']);
  const keys = _.sortBy(Object.keys(picked.params || {}));
  return `${_.padEnd(picked.name, 8)} ${keys.map(k => _.kebabCase(k) + '=' + picked.params[k]).join(',')} ${bytes(picked.size || 0)}`;
}

export const summarize = (lines) => {
  const groups = _.groupBy(lines, l => l.slice(0, 3));
  return _.mapValues(groups, g => _.sumBy(g, s => s.length));
};
