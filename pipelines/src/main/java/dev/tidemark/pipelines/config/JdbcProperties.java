package dev.tidemark.pipelines.config;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.postgresql.PGProperty;

/**
 * {@code --jdbcProperties=PATH}: a properties file of PostgreSQL's JDBC driver, whose settings
 * every table sink of the run logs in with: {@code user}, {@code password}, {@code ssl}, {@code
 * sslmode} and the like, by the driver's own names. A name the driver does not know is refused
 * before the job starts, with the nearest one it does. Values are never printed, the password's
 * least of all.
 */
public final class JdbcProperties {

  private static final List<String> KNOWN =
      Arrays.stream(PGProperty.values()).map(PGProperty::getName).toList();

  private JdbcProperties() {}

  /**
   * The settings of {@code --jdbcProperties}, empty without it.
   *
   * @throws ConfigurationException if the file cannot be read or names a setting the driver does
   *     not take
   */
  public static Map<String, String> from(TidemarkOptions options) {
    String path = options.getJdbcProperties();
    if (path == null) {
      return Map.of();
    }
    Map<String, String> settings = PropertiesFile.read("jdbcProperties", path);
    for (String name : settings.keySet()) {
      if (PGProperty.forName(name) == null) {
        String meant = NearestName.among(KNOWN, name);
        throw new ConfigurationException(
            "--jdbcProperties: '"
                + name
                + "' in "
                + path
                + " is not a property of PostgreSQL's JDBC driver"
                + (meant == null ? "; see its documentation" : "; did you mean '" + meant + "'?"));
      }
    }
    return settings;
  }
}
