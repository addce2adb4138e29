package dev.tidemark.pipelines.io.jdbc;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.ConcurrentHashMap;
import javax.sql.DataSource;

/**
 * One pool of connections (HikariCP) per database and login in each JVM, shared by every writer of
 * a table sink that runs there, and kept as long as the JVM: a worker's writers come and go with
 * its bundles and its jobs, while a connection takes a round trip or three to open.
 */
final class ConnectionPools {

  /** Writers of one JVM at once: a TaskManager's slots, each with its few outputs. */
  private static final int CONNECTIONS = 4;

  private static final Map<String, HikariDataSource> POOLS = new ConcurrentHashMap<>();

  private ConnectionPools() {}

  /** The pool of {@code url}, logging in with {@code properties}. */
  static DataSource of(String url, Map<String, String> properties) {
    return POOLS.computeIfAbsent(url + '\n' + properties, key -> open(url, properties));
  }

  private static HikariDataSource open(String url, Map<String, String> properties) {
    HikariConfig config = new HikariConfig();
    config.setPoolName("tidemark " + url);
    config.setJdbcUrl(url);
    Properties login = new Properties();
    login.putAll(properties);
    config.setDataSourceProperties(login);
    config.setMaximumPoolSize(CONNECTIONS);
    config.setMinimumIdle(0);
    // A writer waits for a connection this long before it counts the database as down, and
    // retries: the database may be restarting. The pool opens none before a writer asks.
    config.setConnectionTimeout(5_000);
    config.setInitializationFailTimeout(-1);
    return new HikariDataSource(config);
  }
}
