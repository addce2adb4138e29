package dev.tidemark.pipelines.io.jdbc;

import java.net.ConnectException;
import java.net.SocketTimeoutException;
import java.net.UnknownHostException;
import java.sql.SQLException;

/**
 * What a failed check of a table sink says, in one line: the server's own words where it answered
 * (a wrong password, a database that does not exist, a right the user lacks), what the network said
 * where it did not. PostgreSQL's and its driver's messages never hold the password.
 */
final class LoginErrors {

  private LoginErrors() {}

  /** The line for {@code error}, met while checking {@code address}. */
  static String line(JdbcAddress address, SQLException error) {
    Throwable cause = rootCause(error);
    String state = error.getSQLState() == null ? "" : error.getSQLState();
    if (cause instanceof UnknownHostException) {
      return "there is no host '" + address.host() + "'";
    }
    if (cause instanceof ConnectException) {
      return "nothing answers at " + address.host() + ":" + address.port();
    }
    if (cause instanceof SocketTimeoutException || state.equals("08001")) {
      return address.server() + " did not answer in time (" + firstLine(error) + ")";
    }
    if (state.startsWith("28")) {
      return address.server()
          + " refused the login: "
          + firstLine(error)
          + "; check user and password in --jdbcProperties";
    }
    return address.server() + ": " + firstLine(error);
  }

  /** The first line of the server's message, without PostgreSQL's {@code FATAL:} and the like. */
  static String firstLine(SQLException error) {
    String message = error.getMessage() == null ? error.toString() : error.getMessage();
    return message.lines().findFirst().orElse("").replaceFirst("^(FATAL|ERROR): ", "").trim();
  }

  private static Throwable rootCause(Throwable error) {
    Throwable cause = error;
    while (cause.getCause() != null && cause.getCause() != cause) {
      cause = cause.getCause();
    }
    return cause;
  }
}
