package dev.tidemark.pipelines.config;

/** Bad configuration, found before the job starts; its message is the one line the user sees. */
public final class ConfigurationException extends RuntimeException {

  private static final long serialVersionUID = 1L;

  public ConfigurationException(String message) {
    super(message);
  }
}
