package dev.tidemark.pipelines.io.jdbc;

import dev.tidemark.pipelines.config.ConfigurationException;
import java.io.Serializable;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.regex.Pattern;

/**
 * A table sink's address, {@code jdbc:postgresql://HOST:PORT/DB?table=NAME}: the database's JDBC
 * URL and the table, {@code NAME} or {@code SCHEMA.NAME}, in plain lower-case SQL names. It holds
 * no login: that comes from {@code --jdbcProperties}, so the address can be printed.
 */
public record JdbcAddress(String host, int port, String database, String table)
    implements Serializable {

  private static final String FORM = "jdbc:postgresql://HOST:PORT/DB?table=NAME";
  private static final Pattern TABLE =
      Pattern.compile("([a-z_][a-z0-9_]{0,62}\\.)?[a-z_][a-z0-9_]{0,62}");

  /**
   * Parses {@code uri}, the value of {@code --option}.
   *
   * @throws ConfigurationException with one line saying what is wrong; it never repeats the URL's
   *     query, which might hold a password
   */
  public static JdbcAddress parse(String option, String uri) {
    URI parsed;
    try {
      parsed = new URI(uri.substring("jdbc:".length()));
    } catch (URISyntaxException e) {
      throw new ConfigurationException("--" + option + ": not a URL of the form " + FORM);
    }
    String database = parsed.getPath() == null ? "" : parsed.getPath().replaceFirst("^/", "");
    if (parsed.getHost() == null || database.isEmpty()) {
      throw new ConfigurationException("--" + option + ": name the host and the database: " + FORM);
    }
    String query = parsed.getQuery() == null ? "" : parsed.getQuery();
    if (!query.startsWith("table=") || query.contains("&")) {
      throw new ConfigurationException(
          "--"
              + option
              + ": the URL takes one setting, table=NAME ("
              + FORM
              + "); put user, password and the driver's other properties in"
              + " --jdbcProperties=FILE");
    }
    String table = query.substring("table=".length());
    if (!TABLE.matcher(table).matches()) {
      throw new ConfigurationException(
          "--"
              + option
              + ": '"
              + table
              + "' is not a table tidemark writes: use a plain lower-case name, NAME or"
              + " SCHEMA.NAME, of letters, digits and _");
    }
    return new JdbcAddress(
        parsed.getHost(), parsed.getPort() < 0 ? 5432 : parsed.getPort(), database, table);
  }

  /** The database's JDBC URL, without the table. */
  public String url() {
    return "jdbc:postgresql://" + host + ":" + port + "/" + database;
  }

  /** Where the server is, as a message names it. */
  String server() {
    return "PostgreSQL at " + host + ":" + port;
  }

  @Override
  public String toString() {
    return url() + "?table=" + table;
  }
}
