/**
 * The syntax tree of a filter in Meilisearch's filter expression syntax.
 *
 * Values are kept as the strings the filter spelled (quotes and escapes removed), because Meilisearch
 * decides per use whether a value is a number: `price = 10` matches the number 10 and the string
 * "10", `price > 10` compares numbers only. The negated operators are written with `not`, as
 * Meilisearch does: `a != b` is its own operator, but `a NOT IN [...]`, `a NOT EXISTS`, `a IS NOT NULL`,
 * `a IS NOT EMPTY`, `a NOT CONTAINS b` and `a NOT STARTS WITH b` are `not` around the positive
 * condition, and `NOT NOT x` is `x`. `and` and `or` have at least two children; parentheses leave no
 * node of their own.
 *
 * Every node parsed from a string carries `position`: the 0-based character offset (in code points)
 * where it starts in that string; for a condition, where its attribute starts. `position` is
 * non-enumerable so that deep equality and JSON ignore it: the same filter written twice, differently
 * spaced, gives equal trees.
 */

interface Positioned {
  /** Where the node starts in the parsed string (non-enumerable; absent on hand-built nodes). */
  readonly position?: number
}

export type CompareOperator = '=' | '!=' | '>' | '>=' | '<' | '<='

/** `attribute = value`, `attribute != value`, `attribute > value`, ... */
export interface CompareNode extends Positioned {
  type: 'compare'
  attribute: string
  operator: CompareOperator
  value: string
}

/** `attribute from TO to`: from <= attribute <= to. */
export interface RangeNode extends Positioned {
  type: 'range'
  attribute: string
  from: string
  to: string
}

/** `attribute IN [a, b, ...]`: attribute = a OR attribute = b ... (false for an empty list). */
export interface InNode extends Positioned {
  type: 'in'
  attribute: string
  values: string[]
}

/** `attribute EXISTS`: the document has the attribute, whatever its value (null and empty included). */
export interface ExistsNode extends Positioned {
  type: 'exists'
  attribute: string
}

/** `attribute IS NULL`. */
export interface IsNullNode extends Positioned {
  type: 'isNull'
  attribute: string
}

/** `attribute IS EMPTY`: "", [] or {}. */
export interface IsEmptyNode extends Positioned {
  type: 'isEmpty'
  attribute: string
}

/** `attribute CONTAINS value`: a string value contains it (case-insensitively). */
export interface ContainsNode extends Positioned {
  type: 'contains'
  attribute: string
  value: string
}

/** `attribute STARTS WITH value`: a string value starts with it (case-insensitively). */
export interface StartsWithNode extends Positioned {
  type: 'startsWith'
  attribute: string
  value: string
}

export interface NotNode extends Positioned {
  type: 'not'
  child: FilterNode
}

export interface AndNode extends Positioned {
  type: 'and'
  children: FilterNode[]
}

export interface OrNode extends Positioned {
  type: 'or'
  children: FilterNode[]
}

export type ConditionNode =
  | CompareNode
  | RangeNode
  | InNode
  | ExistsNode
  | IsNullNode
  | IsEmptyNode
  | ContainsNode
  | StartsWithNode

export type FilterNode = ConditionNode | NotNode | AndNode | OrNode

/** Sets the non-enumerable `position` of a node and returns it. */
export function at<T extends FilterNode> (node: T, position: number): T {
  Object.defineProperty(node, 'position', { value: position, enumerable: false, writable: false, configurable: true })
  return node
}

export function isCondition (node: FilterNode): node is ConditionNode {
  return node.type !== 'not' && node.type !== 'and' && node.type !== 'or'
}

/** Every condition of the tree, in the order they appear in the filter. */
export function conditions (node: FilterNode): ConditionNode[] {
  const out: ConditionNode[] = []
  const stack: FilterNode[] = [node]
  while (stack.length > 0) {
    const n = stack.pop()!
    if (n.type === 'not') stack.push(n.child)
    else if (n.type === 'and' || n.type === 'or') {
      for (let i = n.children.length - 1; i >= 0; i--) stack.push(n.children[i]!)
    } else out.push(n)
  }
  return out
}
