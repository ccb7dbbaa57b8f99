import Foundation

/// A CA of its own and a server certificate it signed, made with openssl for one test.
public struct TestCertificates: Sendable {
    public var caCertificate: String
    public var serverCertificate: String
    public var serverKey: String

    /// - Parameter names: the server certificate's subject alternative names.
    public static func make(
        in folder: TemporaryDirectory, name: String = "tls", names: String = "IP:127.0.0.1,DNS:localhost"
    ) async throws -> TestCertificates {
        try await offThePool { try makeNow(in: folder, name: name, names: names) }
    }

    private static func makeNow(in folder: TemporaryDirectory, name: String, names: String) throws -> TestCertificates {
        let dir = folder.file(name)
        try FileManager.default.createDirectory(atPath: dir, withIntermediateDirectories: true)
        // Readable by mosquitto, which drops to its own user when started as root.
        chmod(folder.path, 0o755)
        chmod(dir, 0o755)
        try "subjectAltName=\(names)\n".write(toFile: dir + "/san.ext", atomically: true, encoding: .utf8)
        let script = """
            set -e
            cd '\(dir)'
            openssl req -x509 -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout ca.key -out ca.crt -days 2 -subj '/CN=mtt test CA \(name)'
            openssl req -newkey ec -pkeyopt ec_paramgen_curve:prime256v1 -nodes -keyout server.key -out server.csr -subj '/CN=mtt test server'
            openssl x509 -req -in server.csr -CA ca.crt -CAkey ca.key -CAcreateserial -out server.crt -days 2 -extfile san.ext
            chmod 644 ca.crt server.crt server.key
            """
        let result = try ChildProcess.runBlocking("/bin/sh", ["-c", script])
        guard result.status == 0 else { throw TestCertificatesError(reason: "openssl: \(result.stderr)") }
        return TestCertificates(caCertificate: dir + "/ca.crt", serverCertificate: dir + "/server.crt", serverKey: dir + "/server.key")
    }
}

public struct TestCertificatesError: Error, CustomStringConvertible {
    public var reason: String
    public var description: String { reason }
}
