import AtelierRecords

/// Why a chart cannot be drawn.
public enum ChartError: ExitCodedError, Equatable {
    case noStats
    case mixedGroupings(String, String)
    case noField(String)
    case notANumber(String, String)
    case unsuitable(String)
    case rendering(String)

    public var description: String {
        switch self {
        case .noStats:
            return "no stats records to chart; try: atl-query stats --by category | atl-export --format svg"
        case let .mixedGroupings(a, b):
            return "the stats records are grouped two ways (by \(a) and by \(b)); chart one grouping at a time"
        case let .noField(field):
            return "no stats record has the field \"\(field)\" (--value)"
        case let .notANumber(field, group):
            return "\"\(field)\" of group \"\(group)\" is not a number"
        case let .unsuitable(message):
            return message
        case let .rendering(message):
            return message
        }
    }

    public var sysexit: Sysexit {
        switch self {
        case .rendering: return .software
        default: return .dataError
        }
    }
}
