package dev.tidemark.pipelines;

import dev.tidemark.transforms.testing.SharedService;

/**
 * Gives a test the one {@link PostgresServer} of its test run ({@link SharedService}). A test names
 * its tables so that they differ from every other test's; a test that stops a server starts one of
 * its own.
 */
public final class SharedPostgresServer extends SharedService<PostgresServer> {

  public SharedPostgresServer() {
    super(PostgresServer.class, PostgresServer::start);
  }
}
