package io.sluice.http;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

/**
 * The {@code Upgrade: h2c} path at the wire level, independent of any client library: the server answers
 * 101 Switching Protocols and then serves the upgraded request as HTTP/2 stream 1.
 */
class H2cUpgradeTest {

    private static final int DATA = 0x0, HEADERS = 0x1, SETTINGS = 0x4, GOAWAY = 0x7;
    private static final int END_STREAM = 0x1;

    @TempDir
    Path certificates;

    record Frame(int type, int flags, int stream, byte[] payload) { }

    @Test
    void upgrade_returns101_thenAnswersOnStream1() throws IOException {
        try (var fixture = ServerFixture.start(TestPki.create(certificates));
             var socket = new Socket("127.0.0.1", fixture.server().port(ServerFixture.PLAIN))) {
            socket.setSoTimeout(30_000);
            OutputStream out = socket.getOutputStream();
            out.write(("GET /status.html HTTP/1.1\r\nHost: localhost\r\nConnection: Upgrade, HTTP2-Settings\r\n"
                       + "Upgrade: h2c\r\nHTTP2-Settings: \r\n\r\n").getBytes(StandardCharsets.US_ASCII));
            out.flush();
            var in = new DataInputStream(socket.getInputStream());
            List<String> head = readHead(in);
            assertEquals("HTTP/1.1 101 Switching Protocols", head.get(0));
            assertTrue(head.stream().anyMatch(line -> line.equalsIgnoreCase("Upgrade: h2c")), head.toString());

            out.write("PRI * HTTP/2.0\r\n\r\nSM\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
            out.write(new byte[] { 0, 0, 0, SETTINGS, 0, 0, 0, 0, 0 });
            out.flush();

            boolean sawSettings = false, sawHeaders = false;
            var body = new ByteArrayOutputStream();
            for (Frame frame = read(in); ; frame = read(in)) {
                assertTrue(frame.type() != GOAWAY, "Server sent GOAWAY");
                if (frame.type() == SETTINGS && frame.stream() == 0) sawSettings = true;
                if (frame.type() == HEADERS && frame.stream() == 1) sawHeaders = true;
                if (frame.type() == DATA && frame.stream() == 1) {
                    body.write(frame.payload());
                    if ((frame.flags() & END_STREAM) != 0) break;
                }
            }
            assertTrue(sawSettings, "no server SETTINGS frame");
            assertTrue(sawHeaders, "no HEADERS on stream 1");
            assertEquals("<title>OK</title>\n", body.toString(StandardCharsets.UTF_8));
        }
    }

    private static List<String> readHead(DataInputStream in) throws IOException {
        List<String> lines = new ArrayList<>();
        var line = new StringBuilder();
        while (true) {
            int b = in.read();
            if (b < 0) throw new IOException("Connection closed in the response head");
            if (b == '\n') {
                String text = line.toString().stripTrailing();
                if (text.isEmpty()) return lines;
                lines.add(text);
                line.setLength(0);
            }
            else {
                line.append((char) b);
            }
        }
    }

    private static Frame read(DataInputStream in) throws IOException {
        int length = (in.readUnsignedByte() << 16) | (in.readUnsignedByte() << 8) | in.readUnsignedByte();
        int type = in.readUnsignedByte();
        int flags = in.readUnsignedByte();
        int stream = in.readInt() & 0x7fffffff;
        byte[] payload = new byte[length];
        in.readFully(payload);
        return new Frame(type, flags, stream, payload);
    }

}
