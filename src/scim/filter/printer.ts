import { AttrPath, FilterNode, FilterValue, PatchPath } from './ast';

/** AST -> filter text that parses back to the same AST (used by round-trip tests and logs). */
export function printFilter(node: FilterNode): string {
  switch (node.type) {
    case 'logical':
      return `${printChild(node.left, node.op, false)} ${node.op} ${printChild(node.right, node.op, true)}`;
    case 'not':
      return `not (${printFilter(node.filter)})`;
    case 'present':
      return `${printAttrPath(node.path)} pr`;
    case 'compare':
      return `${printAttrPath(node.path)} ${node.op} ${printValue(node.value)}`;
    case 'valuePath':
      return `${printAttrPath(node.path)}[${printFilter(node.filter)}]`;
  }
}

export function printAttrPath(p: AttrPath): string {
  return `${p.urn !== undefined ? `${p.urn}:` : ''}${p.attr}${p.sub !== undefined ? `.${p.sub}` : ''}`;
}

export function printPatchPath(p: PatchPath): string {
  const base = printAttrPath(p.path);
  if (!p.filter) return base;
  return `${base}[${printFilter(p.filter)}]${p.subAfterFilter !== undefined ? `.${p.subAfterFilter}` : ''}`;
}

function printValue(v: FilterValue): string {
  return JSON.stringify(v);
}

/**
 * 'and' binds tighter than 'or' and both associate to the left, so a child needs
 * parentheses when it is a looser operator, or the same operator on the right.
 */
function printChild(child: FilterNode, parentOp: 'and' | 'or', isRight: boolean): string {
  const text = printFilter(child);
  if (child.type !== 'logical') return text;
  const looser = parentOp === 'and' && child.op === 'or';
  return looser || (isRight && child.op === parentOp) ? `(${text})` : text;
}
