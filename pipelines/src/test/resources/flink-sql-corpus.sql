-- The corpus of windowed queries that FlinkSqlCorpusTest runs on Flink SQL 1.19 and on sql, over
-- the same file, read by the same CREATE TABLE. Each entry is a comment line that names it, "runs:"
-- when sql gives Flink SQL's rows on the DirectRunner ("runs, on Flink too:" when on Flink at
-- parallelism 2 as well), or "refused: ... | WORD" when sql refuses it in one line that names WORD;
-- then the query, ended by a semicolon. docs/sql-corpus.md lists them.

-- runs: COUNT(column) skips NULL, COUNT(*) does not
SELECT i, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n, COUNT(v) AS nv,
  COUNT(`user`) AS nu
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs: SUM, MIN, MAX and AVG skip NULL
SELECT op, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, SUM(v) AS s, MIN(v) AS mn,
  MAX(v) AS mx, AVG(v) AS av
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op;

-- runs, on Flink too: a NULL group key is a group of its own
SELECT `user`, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), `user`;

-- runs: WHERE column IS NULL
SELECT i, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table WHERE v IS NULL GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs: WHERE with NULL's three truth values
SELECT i, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table WHERE v > 500 OR `user` = 'u1'
GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs: IN, LIKE and BETWEEN over NULL
SELECT op, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table WHERE `user` IN ('u1', 'u2', 'u3') OR `user` LIKE 'u1%' OR v BETWEEN 100 AND 200
GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op;

-- runs: a BOOLEAN group key that may be NULL
SELECT v > 500 AS big, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), v > 500;

-- runs: COALESCE in the group key
SELECT COALESCE(`user`, 'nobody') AS who, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), COALESCE(`user`, 'nobody');

-- runs: CONCAT of any number of arguments, NULL when any is
SELECT CONCAT(i, ':', op, ':', `user`) AS k, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), CONCAT(i, ':', op, ':', `user`);

-- runs: CONCAT_WS skips NULL
SELECT CONCAT_WS('/', i, `user`) AS k, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), CONCAT_WS('/', i, `user`);

-- runs: IF
SELECT IF(v > 500, 'big', 'small') AS size, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), IF(v > 500, 'big', 'small');

-- runs: NULLIF
SELECT i, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(NULLIF(op, 'es_sink')) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs: CASE with NULL
SELECT CASE WHEN v IS NULL THEN 'none' WHEN v < 300 THEN 'low' ELSE 'high' END AS band,
  TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND),
  CASE WHEN v IS NULL THEN 'none' WHEN v < 300 THEN 'low' ELSE 'high' END;

-- runs: IFNULL, GREATEST and LEAST
SELECT IFNULL(`user`, '-') AS who, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  MAX(GREATEST(v, 300)) AS g, MIN(LEAST(v, 700)) AS l
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), IFNULL(`user`, '-');

-- runs: SPLIT_INDEX
SELECT SPLIT_INDEX(op, '_', 0) AS sink, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), SPLIT_INDEX(op, '_', 0);

-- runs: REGEXP_EXTRACT with a group
SELECT REGEXP_EXTRACT(`user`, 'u(\d)', 1) AS d, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), REGEXP_EXTRACT(`user`, 'u(\d)', 1);

-- runs: REGEXP_REPLACE
SELECT REGEXP_REPLACE(op, '_sink$', '') AS sink, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), REGEXP_REPLACE(op, '_sink$', '');

-- runs: JSON_VALUE
SELECT JSON_VALUE(j, '$.k') AS k, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), JSON_VALUE(j, '$.k');

-- runs: UPPER, SUBSTRING, CHAR_LENGTH, || and CAST(... AS STRING)
SELECT UPPER(SUBSTRING(i, 5)) || '-' || CAST(CHAR_LENGTH(op) AS STRING) AS k,
  TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND),
  UPPER(SUBSTRING(i, 5)) || '-' || CAST(CHAR_LENGTH(op) AS STRING);

-- runs: LOWER, TRIM, REPLACE and POSITION
SELECT LOWER(TRIM(REPLACE(op, '_', ' '))) AS o, POSITION('_' IN op) AS p,
  TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op;

-- runs: LPAD, RPAD, LEFT and RIGHT
SELECT LPAD(`user`, 4, '0') AS lp, RPAD(i, 7, '.') AS rp, LEFT(op, 2) AS le, RIGHT(op, 4) AS ri,
  TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), `user`, i, op;

-- runs: REPEAT and REVERSE
SELECT REPEAT(i, 2) AS r, REVERSE(op) AS o, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i, op;

-- runs: MD5 and TO_BASE64
SELECT MD5(op) AS h, TO_BASE64(i) AS b, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws,
  COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i, op;

-- runs: MOD, ABS and ROUND
SELECT MOD(v, 3) AS m, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, ABS(MIN(v) - 500) AS a,
  ROUND(SUM(price) / 3, 1) AS r
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), MOD(v, 3);

-- runs: CAST to INT, DOUBLE and DECIMAL
SELECT i, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, SUM(CAST(v AS INT)) AS si,
  MAX(CAST(v AS DOUBLE) / 4) AS md, MAX(CAST(v AS DECIMAL(12, 3))) AS mx
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs: DECIMAL(10, 2) keeps its scale in SUM, MIN and MAX
SELECT op, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, SUM(price) AS s, MIN(price) AS mn,
  MAX(price) AS mx
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op;

-- runs: a DATE column in GROUP BY and WHERE
SELECT `day`, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table WHERE `day` >= DATE '2023-11-14' OR `day` IS NULL
GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), `day`;

-- runs: TO_TIMESTAMP, with and without a format
SELECT TO_TIMESTAMP(CAST(`day` AS STRING) || ' 10:00:00') AS morning,
  TO_TIMESTAMP(CAST(`day` AS STRING), 'yyyy-MM-dd') AS midnight,
  TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), `day`;

-- runs: TIMESTAMPADD and TIMESTAMPDIFF over the window's bounds
SELECT i, TIMESTAMPADD(MINUTE, 1, TUMBLE_START(rowtime, INTERVAL '2' SECOND)) AS later,
  TIMESTAMPDIFF(SECOND, TUMBLE_START(rowtime, INTERVAL '2' SECOND),
    TUMBLE_END(rowtime, INTERVAL '2' SECOND)) AS seconds, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '2' SECOND), i;

-- runs: DATE_FORMAT and EXTRACT of the window's start
SELECT DATE_FORMAT(TUMBLE_START(rowtime, INTERVAL '1' SECOND), 'HH:mm:ss') AS hms,
  EXTRACT(SECOND FROM TUMBLE_START(rowtime, INTERVAL '1' SECOND)) AS s, i, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs: FROM_UNIXTIME and UNIX_TIMESTAMP, with and without a format
SELECT i, FROM_UNIXTIME(MAX(t) / 1000) AS latest, FROM_UNIXTIME(MIN(t) / 1000, 'HH:mm:ss') AS first,
  UNIX_TIMESTAMP(DATE_FORMAT(TUMBLE_START(rowtime, INTERVAL '1' SECOND), 'yyyy-MM-dd HH:mm:ss'))
    AS start_seconds,
  MAX(UNIX_TIMESTAMP(CAST(`day` AS STRING), 'yyyy-MM-dd')) AS day_seconds, COUNT(*) AS n
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs, on Flink too: COUNT(DISTINCT ...)
SELECT i, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(DISTINCT `user`) AS users
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs: SUM(DISTINCT ...) beside SUM
SELECT op, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, SUM(DISTINCT v) AS d, SUM(v) AS s
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op;

-- runs: AVG(DISTINCT ...)
SELECT op, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, AVG(DISTINCT v) AS d
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op;

-- runs: a window's groups without an aggregate
SELECT i, op, TUMBLE_END(rowtime, INTERVAL '1' SECOND) AS we
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i, op;

-- runs: HAVING over COUNT(column)
SELECT i, op, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, COUNT(v) AS nv
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i, op HAVING COUNT(v) > 20;

-- runs: the TUMBLE window table function with NULL keys
SELECT window_start, window_end, `user`, COUNT(*) AS n, COUNT(v) AS nv
FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND))
GROUP BY window_start, window_end, `user`;

-- runs: HOP, the group window
SELECT i, HOP_START(rowtime, INTERVAL '1' SECOND, INTERVAL '2' SECOND) AS ws,
  HOP_END(rowtime, INTERVAL '1' SECOND, INTERVAL '2' SECOND) AS we, COUNT(v) AS nv, MAX(price) AS mx
FROM _source_table GROUP BY HOP(rowtime, INTERVAL '1' SECOND, INTERVAL '2' SECOND), i;

-- runs: the HOP window table function with COUNT(DISTINCT ...)
SELECT window_start, window_end, i, COUNT(DISTINCT op) AS ops, COUNT(v) AS nv
FROM TABLE(HOP(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND, INTERVAL '3' SECOND))
GROUP BY window_start, window_end, i;

-- runs: the CUMULATE window table function with NULLs
SELECT window_start, window_end, op, COUNT(`user`) AS nu, MAX(v) AS mx
FROM TABLE(CUMULATE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND,
  INTERVAL '2' SECOND))
GROUP BY window_start, window_end, op;

-- runs, on Flink too: SESSION per user, the group window, NULL among the users
SELECT `user`, SESSION_START(rowtime, INTERVAL '0.305' SECOND) AS ws, COUNT(*) AS n
FROM _source_table GROUP BY SESSION(rowtime, INTERVAL '0.305' SECOND), `user`;

-- runs: the SESSION window table function, partitioned by user
SELECT window_start, window_end, `user`, COUNT(*) AS n, SUM(price) AS s
FROM TABLE(SESSION(TABLE _source_table PARTITION BY `user`, DESCRIPTOR(rowtime),
  INTERVAL '0.305' SECOND))
GROUP BY window_start, window_end, `user`;

-- runs, on Flink too: FIRST_VALUE and LAST_VALUE skip NULL, in the order records arrived
SELECT i, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, FIRST_VALUE(v) AS f, LAST_VALUE(v) AS l,
  FIRST_VALUE(`user`) AS fu, LAST_VALUE(price) AS lp
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;

-- runs, on Flink too: LISTAGG, with the default separator and with one of its own
SELECT op, TUMBLE_START(rowtime, INTERVAL '1' SECOND) AS ws, LISTAGG(`user`) AS users,
  LISTAGG(i, ';') AS indices
FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), op;

-- runs, on Flink too: window Top-N over a TUMBLE aggregate
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY n DESC, op) AS rownum
  FROM (SELECT window_start, window_end, op, COUNT(*) AS n
        FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND))
        GROUP BY window_start, window_end, op))
WHERE rownum <= 2;

-- runs: window Top-N over a HOP aggregate, per partition, with HAVING
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, i ORDER BY s DESC) AS rownum
  FROM (SELECT window_start, window_end, i, `user`, SUM(v) AS s
        FROM TABLE(HOP(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND,
          INTERVAL '2' SECOND))
        GROUP BY window_start, window_end, i, `user` HAVING COUNT(*) > 1))
WHERE rownum <= 3;

-- runs: window Top-N over a CUMULATE aggregate, some of its columns, rownum < N
SELECT window_end, `user`, cnt, rownum FROM (
  SELECT window_start, window_end, `user`, cnt,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY cnt DESC, `user` NULLS LAST)
      AS rownum
  FROM (SELECT window_start, window_end, `user`, COUNT(*) AS cnt
        FROM TABLE(CUMULATE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND,
          INTERVAL '2' SECOND))
        GROUP BY window_start, window_end, `user`))
WHERE rownum < 4;

-- runs: window Top-N over a window table function's rows, NULLs last
SELECT * FROM (
  SELECT t, i, v, price, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rownum
  FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND)))
WHERE rownum <= 3;

-- runs: window Top-N over HOP's rows, per partition, with WHERE and an expression
SELECT * FROM (
  SELECT op, CONCAT(i, '/', `user`) AS who, price * 2 AS twice, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end, op ORDER BY price ASC NULLS LAST, t)
      AS rownum
  FROM TABLE(HOP(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND,
    INTERVAL '2' SECOND))
  WHERE v > 100)
WHERE rownum <= 2;

-- runs: window Top-N with a condition beside the rank, kept after ranking
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY n DESC, op) AS rownum
  FROM (SELECT window_start, window_end, op, COUNT(*) AS n
        FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND))
        GROUP BY window_start, window_end, op))
WHERE rownum <= 2 AND op <> 'es_sink';

-- runs: window Top-N over a window table function's rows, with a condition beside the rank
SELECT * FROM (
  SELECT t, i, v, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end ORDER BY v DESC) AS rownum
  FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND)))
WHERE i = 'idx_a' AND rownum <= 3;

-- runs, on Flink too: window deduplication, the first row per key
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end, i ORDER BY rowtime) AS rownum
  FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND)))
WHERE rownum = 1;

-- runs: window deduplication, the last row per key
SELECT * FROM (
  SELECT t, i, op, v, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end, op ORDER BY rowtime DESC) AS rownum
  FROM TABLE(TUMBLE(TABLE _source_table, DESCRIPTOR(rowtime), INTERVAL '1' SECOND)))
WHERE rownum <= 1;

-- runs: window deduplication in each user's sessions
SELECT * FROM (
  SELECT `user`, t, v, window_start, window_end,
    ROW_NUMBER() OVER (PARTITION BY window_start, window_end, `user` ORDER BY rowtime DESC) AS rownum
  FROM TABLE(SESSION(TABLE _source_table PARTITION BY `user`, DESCRIPTOR(rowtime),
    INTERVAL '0.305' SECOND)))
WHERE rownum = 1;

-- runs, on Flink too: window Top-N over a SESSION aggregate, the users whose sessions end together
SELECT * FROM (
  SELECT *, ROW_NUMBER() OVER (PARTITION BY window_start, window_end
    ORDER BY n DESC, `user` NULLS LAST) AS rownum
  FROM (SELECT window_start, window_end, `user`, COUNT(*) AS n
        FROM TABLE(SESSION(TABLE _source_table PARTITION BY `user`, DESCRIPTOR(rowtime),
          INTERVAL '0.305' SECOND))
        GROUP BY window_start, window_end, `user`))
WHERE rownum <= 2;

-- refused: ROW_NUMBER outside a window Top-N | ROW_NUMBER
SELECT i, ROW_NUMBER() OVER (PARTITION BY i ORDER BY rowtime) AS n FROM _source_table;

-- refused: an OVER aggregation | OVER
SELECT i, COUNT(*) OVER (PARTITION BY i ORDER BY rowtime) AS n FROM _source_table;


-- refused: a GROUP BY without a window | GROUP BY
SELECT i, COUNT(*) AS n FROM _source_table GROUP BY i;

-- refused: a join | JOIN
SELECT a.i, COUNT(*) AS n FROM _source_table a JOIN _source_table b ON a.i = b.i
GROUP BY TUMBLE(a.rowtime, INTERVAL '1' SECOND), a.i;

-- refused: ORDER BY on a stream | ORDER BY
SELECT i, COUNT(*) AS n FROM _source_table GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i
ORDER BY n;

-- refused: a function sql does not know | NO_SUCH_FUNCTION
SELECT i, NO_SUCH_FUNCTION(op) AS o, COUNT(*) AS n FROM _source_table
GROUP BY TUMBLE(rowtime, INTERVAL '1' SECOND), i;
