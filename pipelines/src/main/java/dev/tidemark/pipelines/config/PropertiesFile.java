package dev.tidemark.pipelines.config;

import java.io.IOException;
import java.io.Reader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import java.util.TreeMap;

/**
 * A properties file an option names ({@code --kafkaProperties}, {@code --jdbcProperties}), read as
 * Java reads one, each value trimmed; a file that is not there or cannot be read is one line naming
 * the option.
 */
final class PropertiesFile {

  private PropertiesFile() {}

  /**
   * The settings of the file at {@code path}, by name, in order.
   *
   * @throws ConfigurationException naming {@code --option} if the file cannot be read
   */
  static Map<String, String> read(String option, String path) {
    Properties properties = new Properties();
    try (Reader in = Files.newBufferedReader(Path.of(path), StandardCharsets.UTF_8)) {
      properties.load(in);
    } catch (NoSuchFileException e) {
      throw new ConfigurationException("--" + option + ": there is no file '" + path + "'");
    } catch (IOException | IllegalArgumentException e) {
      throw new ConfigurationException(
          "--" + option + ": cannot read '" + path + "' (" + e.getMessage() + ")");
    }
    Map<String, String> settings = new TreeMap<>();
    for (String name : properties.stringPropertyNames()) {
      settings.put(name, properties.getProperty(name).trim());
    }
    return settings;
  }
}
