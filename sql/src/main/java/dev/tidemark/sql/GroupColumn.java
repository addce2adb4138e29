package dev.tidemark.sql;

import java.io.Serializable;

/**
 * One column of a query's {@code GROUP BY}, in the order of the aggregate's output: a key column,
 * whose value is part {@code keyPart} of the pane's key, or the window's start or end, which come
 * from the pane.
 */
record GroupColumn(Kind kind, int keyPart) implements Serializable {

  enum Kind {
    KEY,
    WINDOW_START,
    WINDOW_END
  }

  static GroupColumn key(int keyPart) {
    return new GroupColumn(Kind.KEY, keyPart);
  }

  static GroupColumn window(Kind kind) {
    return new GroupColumn(kind, -1);
  }
}
