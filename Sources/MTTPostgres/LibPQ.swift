import CLibPQ
import Glibc

/// libpq's functions, opened the first time a PostgreSQL command needs them rather than linked
/// into mtt. Linked, libpq and the nineteen libraries it loads (Kerberos, LDAP, SASL, GnuTLS and
/// theirs) were mapped into every mtt process: 3.3 MB of a listener's peak memory (issue 49,
/// `/proc/PID/smaps` during shared/bench's burst) for a part that only the community commands
/// use. A machine without libpq5 then runs everything else, and those commands say what to install.
struct LibPQ: Sendable {
    typealias Connection = OpaquePointer
    typealias Result = OpaquePointer

    let connectdb: @convention(c) (UnsafePointer<CChar>?) -> Connection?
    let status: @convention(c) (Connection?) -> ConnStatusType
    let errorMessage: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let finish: @convention(c) (Connection?) -> Void
    let setNoticeProcessor: @convention(c) (Connection?, PQnoticeProcessor?, UnsafeMutableRawPointer?) -> PQnoticeProcessor?
    let getCancel: @convention(c) (Connection?) -> OpaquePointer?
    let freeCancel: @convention(c) (OpaquePointer?) -> Void
    let cancel: @convention(c) (OpaquePointer?, UnsafeMutablePointer<CChar>?, Int32) -> Int32
    let conninfoParse: @convention(c) (UnsafePointer<CChar>?, UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>?) -> UnsafeMutablePointer<PQconninfoOption>?
    let conninfoFree: @convention(c) (UnsafeMutablePointer<PQconninfoOption>?) -> Void
    let freemem: @convention(c) (UnsafeMutableRawPointer?) -> Void
    let exec: @convention(c) (Connection?, UnsafePointer<CChar>?) -> Result?
    let prepare: @convention(c) (Connection?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?) -> Result?
    let execPrepared: @convention(c) (
        Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?, UnsafePointer<Int32>?, Int32
    ) -> Result?
    let execParams: @convention(c) (
        Connection?, UnsafePointer<CChar>?, Int32, UnsafePointer<Oid>?, UnsafePointer<UnsafePointer<CChar>?>?, UnsafePointer<Int32>?,
        UnsafePointer<Int32>?, Int32
    ) -> Result?
    let clear: @convention(c) (Result?) -> Void
    let resultStatus: @convention(c) (Result?) -> ExecStatusType
    let resultErrorField: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let escapeIdentifier: @convention(c) (Connection?, UnsafePointer<CChar>?, Int) -> UnsafeMutablePointer<CChar>?
    let escapeLiteral: @convention(c) (Connection?, UnsafePointer<CChar>?, Int) -> UnsafeMutablePointer<CChar>?
    let encryptPasswordConn: @convention(c) (Connection?, UnsafePointer<CChar>?, UnsafePointer<CChar>?, UnsafePointer<CChar>?) -> UnsafeMutablePointer<CChar>?
    let host: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let port: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let db: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let user: @convention(c) (Connection?) -> UnsafeMutablePointer<CChar>?
    let nfields: @convention(c) (Result?) -> Int32
    let ntuples: @convention(c) (Result?) -> Int32
    let fname: @convention(c) (Result?, Int32) -> UnsafeMutablePointer<CChar>?
    let getisnull: @convention(c) (Result?, Int32, Int32) -> Int32
    let getvalue: @convention(c) (Result?, Int32, Int32) -> UnsafeMutablePointer<CChar>?

    /// A C string libpq returned; empty for none (its functions return NULL only for a missing
    /// connection or result, or a column out of range).
    static func text(_ pointer: UnsafeMutablePointer<CChar>?) -> String {
        pointer.map { String(cString: $0) } ?? ""
    }

    /// The library's file: the soname Debian's libpq5 (and every distribution's) installs.
    static let soname = "libpq.so.5"

    /// Opened once, on first use; the same answer afterwards.
    static let opened: Swift.Result<LibPQ, PostgresError> = open()

    /// The functions, or why there are none (libpq5 missing, or too old to have one of them).
    static func load() throws(PostgresError) -> LibPQ { try opened.get() }

    private static func open() -> Swift.Result<LibPQ, PostgresError> {
        guard let handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? soname
            return .failure(PostgresError("PostgreSQL needs libpq, which is not installed (\(reason)): sudo apt-get install libpq5"))
        }
        var missing: [String] = []
        // Each function's C type is the field's: a symbol of another type would be a crash, which
        // the names copied from libpq-fe.h beside the fields' types guard against.
        func symbol<F>(_ name: String) -> F {
            guard let address = dlsym(handle, name) else {
                missing.append(name)
                // Never called: the library is refused below.
                return unsafeBitCast(UnsafeMutableRawPointer(bitPattern: 1)!, to: F.self)
            }
            return unsafeBitCast(address, to: F.self)
        }
        let library = LibPQ(
            connectdb: symbol("PQconnectdb"),
            status: symbol("PQstatus"),
            errorMessage: symbol("PQerrorMessage"),
            finish: symbol("PQfinish"),
            setNoticeProcessor: symbol("PQsetNoticeProcessor"),
            getCancel: symbol("PQgetCancel"),
            freeCancel: symbol("PQfreeCancel"),
            cancel: symbol("PQcancel"),
            conninfoParse: symbol("PQconninfoParse"),
            conninfoFree: symbol("PQconninfoFree"),
            freemem: symbol("PQfreemem"),
            exec: symbol("PQexec"),
            prepare: symbol("PQprepare"),
            execPrepared: symbol("PQexecPrepared"),
            execParams: symbol("PQexecParams"),
            clear: symbol("PQclear"),
            resultStatus: symbol("PQresultStatus"),
            resultErrorField: symbol("PQresultErrorField"),
            escapeIdentifier: symbol("PQescapeIdentifier"),
            escapeLiteral: symbol("PQescapeLiteral"),
            encryptPasswordConn: symbol("PQencryptPasswordConn"),
            host: symbol("PQhost"),
            port: symbol("PQport"),
            db: symbol("PQdb"),
            user: symbol("PQuser"),
            nfields: symbol("PQnfields"),
            ntuples: symbol("PQntuples"),
            fname: symbol("PQfname"),
            getisnull: symbol("PQgetisnull"),
            getvalue: symbol("PQgetvalue"))
        guard missing.isEmpty else {
            return .failure(PostgresError("this libpq has no \(missing.joined(separator: ", ")): PostgreSQL needs libpq 10 or newer (sudo apt-get install libpq5)"))
        }
        return .success(library)
    }
}
