package dev.tidemark.pipelines;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * Serves a bundled sample over a loopback socket, the way {@code nc -lk} serves a user's file, so
 * that the demo exercises the real socket source. It sends the sample to the first client and keeps
 * the connection open until {@link #close()}.
 */
final class SampleServer implements AutoCloseable {

  private final ServerSocket server;
  private final byte[] sample;
  private final Thread sender;
  private volatile Socket client;

  SampleServer(String resource) throws IOException {
    try (InputStream in = SampleServer.class.getResourceAsStream(resource)) {
      if (in == null) {
        throw new IOException("bundled sample " + resource + " is missing from the jar");
      }
      sample = in.readAllBytes();
    }
    server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
    sender = new Thread(this::serve, "sample-server");
    sender.setDaemon(true);
    sender.start();
  }

  int port() {
    return server.getLocalPort();
  }

  private void serve() {
    try {
      client = server.accept();
      OutputStream out = client.getOutputStream();
      out.write(sample);
      out.flush();
    } catch (IOException e) {
      // Closed before a client came, or the client went away: nothing left to serve.
    }
  }

  /** Closes the connection, which ends a source that reads with {@code endWhenClosed()}. */
  @Override
  public void close() throws IOException {
    if (client != null) {
      client.close();
    }
    server.close();
  }
}
