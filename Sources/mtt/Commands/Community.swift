import ArgumentParser
import MTTCore
import MTTPostgres

struct Community: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Run a community's coverage database on PostgreSQL with PostGIS: set it up, add mappers and map readers.",
        discussion: """
            Many mappers, one map: each mapper's mtt uploads into one PostgreSQL database, which \
            keeps the same cells, buckets and reach as mtt does locally (by triggers, so a record \
            uploaded twice counts once), and decides itself who may write and read what: a \
            mapper inserts only under its own name and reads no other mapper's drive; a map \
            reader reads only the views. QGIS opens the views directly (mtt.cells, \
            mtt.gateways, mtt.reach, mtt.mappers).

            Run these as the database's owner (a role that may create roles and the PostGIS \
            extension). The connection is libpq's: a postgresql:// URL or key=value string, \
            else the PG* environment, a service file; the password comes from ~/.pgpass or \
            PGPASSWORD, never from the command line.
            """,
        subcommands: [Initialize.self, AddMapper.self, GrantMap.self, Status.self, Refresh.self])

    struct ConnectionOptions: ParsableArguments {
        @Option(help: ArgumentHelp(
            "The community database, as libpq takes it: postgresql://USER@HOST:PORT/DATABASE (default: the PG* environment).",
            valueName: "url"))
        var url = ""

        func validate() throws {
            if PostgresConnection.hasPassword(url) {
                throw ValidationError("--url carries a password, which every user of this machine can read on a command line: put it in ~/.pgpass (mode 600) or PGPASSWORD")
            }
        }

        func open() throws -> CommunityDatabase {
            do {
                return CommunityDatabase(try PostgresConnection(url))
            } catch {
                throw RuntimeFailure("cannot reach the community database: \(error)")
            }
        }

        /// The database, with its schema: adding roles before `init` is a step missed.
        func openInitialized() throws -> CommunityDatabase {
            let community = try open()
            guard try community.schemaVersion() > 0 else {
                throw RuntimeFailure("this database has no community schema yet: run mtt community init first")
            }
            return community
        }
    }

    struct Initialize: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "init",
            abstract: "Create schema mtt in the database (PostGIS, tables, triggers, views, roles), or bring it up to date.",
            discussion: """
                Each schema version is one transaction; running it again does nothing; a schema \
                newer than this mtt is refused. Two roles are made for the database: DATABASE_mapper \
                and DATABASE_map, the groups add-mapper and grant-map put their roles in.
                """)

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let community = try connection.open()
            let (from, to) = try community.migrate()
            let place = community.connection.endpoint
            if from == to {
                Console.out("mtt: the community database \(place.database) at \(place.host):\(place.port) is up to date (schema version \(to))")
            } else {
                Console.out("mtt: the community database \(place.database) at \(place.host):\(place.port) has schema version \(to)"
                    + (from == 0 ? " (created)" : " (was \(from))"))
            }
            for (reason, rows) in try community.refusedRows() {
                Console.out("mtt: \(rows) rows refused (\(reason)) are kept aside in mtt.refused_rows, out of the map")
            }
        }
    }

    struct AddMapper: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "add-mapper",
            abstract: "Make a login role for a mapper, and print how that mapper's mtt connects.",
            discussion: "The password is printed once and kept nowhere else: hand it over privately.")

        @Argument(help: ArgumentHelp("The mapper's role name: letters, digits, _, - or . (up to 63).", valueName: "name"))
        var name: String

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let community = try connection.openInitialized()
            let account = try community.addMapper(name)
            Console.out(Community.handOver(account, role: "mapper", use: """
                  in mtt's configuration (~/.config/mtt/config.toml):
                    [sync.postgis]
                    url = "\(account.url)"
                """))
        }
    }

    struct GrantMap: ParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "grant-map",
            abstract: "Make a read-only login role for the community map: it reads the views, nothing else.",
            discussion: "The password is printed once and kept nowhere else.")

        @Argument(help: ArgumentHelp("The role's name: letters, digits, _, - or . (up to 63).", valueName: "name"))
        var name: String

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let community = try connection.openInitialized()
            let account = try community.grantMap(name)
            Console.out(Community.handOver(account, role: "map reader", use: """
                  for the map: mtt serve --db \(account.url)
                  for QGIS (Layer › Add Layer › PostgreSQL): host \(account.host), port \(account.port), database \(account.database), user \(account.name)
                """))
        }
    }

    struct Refresh: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Make the map without the silent gateways again from everything uploaded.",
            discussion: """
                The community map hides, by default, the gateways not heard in the five days before \
                the newest reception; the database keeps that map made (schema version 8), and each \
                mapper's sync makes it again as it ends. Run this after restoring a dump, or when a \
                sync said it could not (from cron, if you like). Until then the map shows it as it \
                was last made, and says since when (mtt community status, the page's status).
                """)

        @OptionGroup var connection: ConnectionOptions

        func run() throws {
            let community = try connection.openInitialized()
            let (asOf, seconds) = try community.refreshWithoutSilent()
            Console.out("mtt: the map without the silent gateways is made as of \(asOf) (\(((seconds * 10).rounded() / 10).plainText) s)")
        }
    }

    /// What to give the person: the URL, the password line, where each goes.
    static func handOver(_ account: CommunityDatabase.Account, role: String, use: String) -> String {
        """
        mtt: \(role) \(account.name) can now connect to \(account.url)
        Give \(account.name) these, the password privately (it is kept nowhere else):
        \(use)
          in ~/.pgpass (chmod 600 ~/.pgpass):
            \(account.pgpassLine)
        """
    }

    struct Status: ParsableCommand {
        static let configuration = CommandConfiguration(
            abstract: "Say what the community database holds and, on a standby, how far behind the primary it is.",
            discussion: """
                Each mapper's totals and the area mapped, as the community map shows them. On a standby \
                (a hot standby streaming from the primary, which mtt serve can read), how many seconds \
                its copy is behind, as the standby reports it: 0 once it has replayed all it received. \
                On the primary, the standbys streaming from it (their lag only to a superuser or a \
                member of pg_monitor). Any role that may read the map's views may ask.
                """)

        @OptionGroup var connection: ConnectionOptions
        @OptionGroup var output: OutputOptions

        func run() throws {
            let reader: CommunityMapReader
            do {
                reader = try CommunityMapReader(url: connection.url)
            } catch {
                throw RuntimeFailure("cannot read the community database: \(error)")
            }
            let status = try reader.communityStatus()
            let standbys = status.replica == nil ? try reader.standbys() : []
            if output.json {
                try JSONLine.print(status)
                return
            }
            for m in status.mappers {
                Console.out("\(m.name): \(m.samples) samples, \(m.attempts) attempts (\(m.heard) heard), \(m.sessions) sessions"
                    + (m.lastRecord.map { ", last \(RFC3339.string($0, fractionDigits: 0))" } ?? ""))
            }
            Console.out("Mapped     \(status.cells) cells, \(status.heardCells) heard, \(status.gateways) gateways")
            if let asOf = status.withoutSilentAsOf { Console.out("Map        without the silent gateways as of \(asOf) (mtt community refresh)") }
            if let replica = status.replica {
                let lag = replica.lagSeconds.map { $0 == 0 ? "up to date" : "\(Int($0.rounded())) s behind the primary" } ?? "nothing replayed yet"
                Console.out("Server     a standby, \(lag)" + (replica.replayedAt.map { " (last replayed commit \(RFC3339.string($0, fractionDigits: 0)))" } ?? ""))
            } else {
                Console.out("Server     the primary" + (standbys.isEmpty ? ", no standby streaming from it" : ""))
                for s in standbys {
                    Console.out("  standby \(s.name.isEmpty ? "(unnamed)" : s.name): \(s.state ?? "state not shown to this role")"
                        + (s.replayLag.map { ", \(Int($0.rounded())) s behind" } ?? ""))
                }
            }
        }
    }
}
