/**
 * Midnight UTC of the first of the last `$2` UTC days, as an SQL expression. Compare a table's column
 * with it written out, not with `bounds.first`: the planner then knows its value, reads an index
 * range of those days and estimates their rows, where a join to the one-row `bounds` is taken for a
 * third of the table whatever the days (at a million rows, a week's report read every row).
 */
export const SINCE_FIRST_DAY = "(((now() AT TIME ZONE 'UTC')::date - ($2::int - 1))::timestamp AT TIME ZONE 'UTC')"

/**
 * SQL common table expressions of the analytics reports (chat and search): the last `$2` UTC days,
 * today included. `bounds` holds `first_day`, `last_day` and `first` (midnight UTC of the first day,
 * to compare timestamps with); `span` has one row per day, so that a day with nothing is reported as 0.
 * Use as `WITH ${LAST_DAYS}, …`.
 */
export const LAST_DAYS = `bounds AS (
  SELECT (now() AT TIME ZONE 'UTC')::date - ($2::int - 1) AS first_day, (now() AT TIME ZONE 'UTC')::date AS last_day,
         ${SINCE_FIRST_DAY} AS first
), span AS (
  SELECT d::date AS day FROM bounds, generate_series(first_day, last_day, interval '1 day') d
)`
