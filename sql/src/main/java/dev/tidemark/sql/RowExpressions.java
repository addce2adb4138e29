package dev.tidemark.sql;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TimeZone;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.DataContext;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.adapter.java.JavaTypeFactory;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.linq4j.QueryProvider;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.linq4j.function.Function1;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexBuilder;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexExecutable;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexExecutorImpl;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexLocalRef;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexNode;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.rex.RexProgram;
import org.apache.beam.vendor.calcite.v1_40_0.org.apache.calcite.schema.SchemaPlus;
import org.checkerframework.checker.nullness.qual.Nullable;

/**
 * One projection and filter of a query (a {@code SELECT} list and its {@code WHERE}, or a {@code
 * HAVING}), evaluated on a row held as Calcite holds values, by the Java code that Calcite
 * generates for it ({@link RexExecutorImpl}) and compiles with Janino. The code travels as its
 * source, and a JVM compiles each source once, on first use: every copy of a query's steps in a job
 * (one per parallel instance of each step that reads records) shares it, since a compile takes a
 * tenth of a second or more.
 */
final class RowExpressions implements Serializable {

  private static final long serialVersionUID = 1L;

  /** Each source compiled in this JVM. Calcite's compiled code keeps no state between calls. */
  private static final Map<String, Function1<DataContext, Object[]>> COMPILED =
      new ConcurrentHashMap<>();

  private final String code;
  private final boolean filters;
  private final SessionTimeZone timeZone;
  private transient @Nullable Function1<DataContext, Object[]> compiled;

  private RowExpressions(String code, boolean filters, SessionTimeZone timeZone) {
    this.code = code;
    this.filters = filters;
    this.timeZone = timeZone;
  }

  /**
   * The projection and condition of {@code program}, compiled now to check that they compile, with
   * the clock's functions ({@code CURRENT_TIMESTAMP}, {@code LOCALTIMESTAMP}) in {@code timeZone}.
   */
  static RowExpressions of(RexProgram program, RexBuilder rexBuilder, SessionTimeZone timeZone) {
    List<RexNode> expressions = new ArrayList<>();
    for (RexLocalRef projected : program.getProjectList()) {
      expressions.add(program.expandLocalRef(projected));
    }
    RexLocalRef condition = program.getCondition();
    if (condition != null) {
      expressions.add(program.expandLocalRef(condition));
    }
    RexExecutable executable =
        RexExecutorImpl.getExecutable(rexBuilder, expressions, program.getInputRowType());
    COMPILED.putIfAbsent(executable.getSource(), executable.getFunction());
    return new RowExpressions(executable.getSource(), condition != null, timeZone);
  }

  /**
   * The projected row of {@code row}, or null when the condition is not true for it.
   *
   * @throws RuntimeException what Calcite's code throws for a row it cannot evaluate (a division by
   *     zero, a cast of text that is not a number)
   */
  Object @Nullable [] apply(Object[] row) {
    Object[] projected = function().apply(new RowContext(row, timeZone));
    if (!filters) {
      return projected;
    }
    if (!Boolean.TRUE.equals(projected[projected.length - 1])) {
      return null;
    }
    return Arrays.copyOf(projected, projected.length - 1);
  }

  private Function1<DataContext, Object[]> function() {
    if (compiled == null) {
      compiled =
          COMPILED.computeIfAbsent(
              code, source -> new RexExecutable(source, "tidemark sql").getFunction());
    }
    return compiled;
  }

  /**
   * What Calcite's code asks of its context: the row, under {@code inputRecord}, and the time of
   * day and zone for {@code CURRENT_TIMESTAMP} and its like: the wall clock, in the query's zone,
   * as Calcite's own connections give them.
   */
  private static final class RowContext implements DataContext {
    private final Object[] row;
    private final SessionTimeZone timeZone;

    RowContext(Object[] row, SessionTimeZone timeZone) {
      this.row = row;
      this.timeZone = timeZone;
    }

    @Override
    public @Nullable SchemaPlus getRootSchema() {
      return null;
    }

    @Override
    public @Nullable JavaTypeFactory getTypeFactory() {
      return null;
    }

    @Override
    public @Nullable QueryProvider getQueryProvider() {
      return null;
    }

    @Override
    public @Nullable Object get(String name) {
      return switch (name) {
        case "inputRecord" -> row;
        case "currentTimestamp", "localTimestamp" -> timeZone.local(System.currentTimeMillis());
        case "utcTimestamp" -> System.currentTimeMillis();
        case "timeZone" -> TimeZone.getTimeZone(timeZone.zone());
        default -> null;
      };
    }
  }
}
