import fc from 'fast-check';
import { AttrPath, COMPARE_OPS, FilterNode, FilterValue } from './ast';

/** fast-check generators for filter ASTs, shared by the parser and SQL property tests. */
const attrName = fc.stringMatching(/^[A-Za-z][A-Za-z0-9_-]{0,8}$/);
const urn = fc.oneof(
  fc.constantFrom('urn:ietf:params:scim:schemas:core:2.0:User', 'URN:ietf:params:scim:schemas:core:2.0:Group'),
  fc.stringMatching(/^urn:[A-Za-z0-9.:-]{1,20}$/),
);

export const arbAttrPath: fc.Arbitrary<AttrPath> = fc
  .record({ urn: fc.option(urn, { nil: undefined }), attr: attrName, sub: fc.option(attrName, { nil: undefined }) })
  .map(({ urn: u, attr, sub }) => ({ ...(u !== undefined ? { urn: u } : {}), attr, ...(sub !== undefined ? { sub } : {}) }));

export const arbValue: fc.Arbitrary<FilterValue> = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string(),
  fc.boolean(),
  fc.constant(null),
  fc.double({ noNaN: true, noDefaultInfinity: true }).filter((n) => !Object.is(n, -0)),
  fc.integer(),
);

/** Any syntactically valid filter (attribute names are arbitrary, so most do not resolve). */
export function arbFilter(leaf: fc.Arbitrary<FilterNode>, inner?: fc.Arbitrary<FilterNode>): fc.Arbitrary<FilterNode> {
  return fc.letrec<{ node: FilterNode }>((tie) => ({
    node: fc.oneof(
      { depthSize: 'small', withCrossShrink: true },
      leaf,
      fc.record({
        type: fc.constant('logical' as const),
        op: fc.constantFrom('and' as const, 'or' as const),
        left: tie('node'),
        right: tie('node'),
      }),
      fc.record({ type: fc.constant('not' as const), filter: tie('node') }),
      ...(inner ? [fc.record({ type: fc.constant('valuePath' as const), path: arbAttrPath, filter: inner })] : []),
    ),
  })).node;
}

export const arbLeaf: fc.Arbitrary<FilterNode> = fc.oneof(
  fc.record({ type: fc.constant('compare' as const), path: arbAttrPath, op: fc.constantFrom(...COMPARE_OPS), value: arbValue }),
  fc.record({ type: fc.constant('present' as const), path: arbAttrPath }),
);

export const arbAnyFilter = arbFilter(arbLeaf, arbFilter(arbLeaf));
