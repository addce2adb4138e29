#!/usr/bin/env bash
# Writes the list of classes the jar's main loads ahead of a run (ClassPreloader), from the built
# jar: the classes count, metrics, join and sql load from it on their bundled samples, in the order
# they load them. Run it after `mvn -q -DskipTests package` when the pipelines' classes change; a
# class the list misses is only loaded later, by the run itself.
set -euo pipefail
cd "$(dirname "$0")"
jar="$PWD/target/tidemark.jar"
out=src/main/resources/dev/tidemark/pipelines/cli/preload-classes.txt
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The classes the jar holds: a class made at run time (by Janino, Byte Buddy) is logged with the
# jar as its source, but a later run cannot load it from there.
jar tf "$jar" | sed -nE 's#^(.*)\.class$#\1#p' | tr / . >"$work/in-jar.txt"
pipelines="count metrics join sql"
# sql plans its query, as a first run does, rather than read the plan an earlier run saved.
rm -rf target/tidemark-plans-*
for pipeline in $pipelines; do
  # Without preloading: the order logged is the run's own, not the list's. Without the startup
  # archive: every class read from the jar, in this JVM.
  java -Dtidemark.noPreload=true -Dtidemark.startupArchive=off -Xlog:class+load=info:file="$work/$pipeline.log" -jar "$jar" \
    "$pipeline" >/dev/null 2>&1
  sed -nE "s#^\[[^]]*\]\[info\]\[class,load\] ([^ ]+) source: file:$jar\$#\1#p" "$work/$pipeline.log" \
    | awk 'NR == FNR { held[$0] = 1; next } held[$0] && !seen[$0]++' "$work/in-jar.txt" - \
      >"$work/$pipeline.txt"
done
# The classes all of them load, in metrics' order, then each pipeline's own.
awk 'FNR == 1 { file++ } file < 4 { count[$0]++; next } count[$0] == 3' \
  "$work/count.txt" "$work/join.txt" "$work/sql.txt" "$work/metrics.txt" >"$work/common.txt"
{
  echo "# Written by pipelines/preload-classes.sh: the classes that count, metrics, join and sql"
  echo "# load from the jar, those all of them load first, then under '## <pipeline>' its own."
  cat "$work/common.txt"
  for pipeline in $pipelines; do
    echo "## $pipeline"
    awk 'NR == FNR { common[$0] = 1; next } !common[$0]' "$work/common.txt" "$work/$pipeline.txt"
  done
} >"$out"
echo "wrote $out: $(grep -vc '^#' "$out") classes"
