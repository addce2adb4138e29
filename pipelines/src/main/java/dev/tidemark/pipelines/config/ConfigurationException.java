package dev.tidemark.pipelines;

/** Bad configuration, found before the job starts; its message is the one line the user sees. */
final class ConfigurationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  ConfigurationException(String message) {
    super(message);
  }
}
