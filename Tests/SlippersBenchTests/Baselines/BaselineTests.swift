import Foundation
import Testing

@testable import SlippersBench

/// The baselines must be correct before their timings mean anything: each one stores,
/// returns and updates pages faithfully.
@Suite struct BaselineTests {
    private let workload = Workload(itemCount: 1_000)

    private func filled(
        _ kind: BaselineKind, in directory: TemporaryDirectory, synchronous: SynchronousMode = .normal
    ) throws -> any Baseline {
        let baseline = try kind.make(in: directory.url, synchronous: synchronous)
        for page in workload.pageNumbers {
            try baseline.persist(page: page, items: workload.items(page: page))
        }
        return baseline
    }

    @Test(arguments: BaselineKind.allCases, SynchronousMode.allCases)
    func readsBackEveryPageAsStored(_ kind: BaselineKind, synchronous: SynchronousMode) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let baseline = try filled(kind, in: directory, synchronous: synchronous)
        for page in [1, 7, 20] {
            #expect(try baseline.readPage(page) == workload.items(page: page))
        }
    }

    @Test(arguments: BaselineKind.allCases)
    func persistingAPageAgainReplacesIt(_ kind: BaselineKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let baseline = try filled(kind, in: directory)
        let shorter = Array(workload.items(page: 3).prefix(10))
        try baseline.persist(page: 3, items: shorter)
        #expect(try baseline.readPage(3) == shorter)
        #expect(try baseline.readPage(4) == workload.items(page: 4))
    }

    @Test(arguments: BaselineKind.allCases)
    func anUpdatedItemIsReadBackInItsPage(_ kind: BaselineKind) throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let baseline = try filled(kind, in: directory)
        var item = workload.items(page: 5)[17]
        item.score = -1
        item.title = "Edited"
        try baseline.updateItem(item, inPage: 5)
        let page = try baseline.readPage(5)
        #expect(page[17] == item)
        #expect(page.count == workload.pageSize)
        #expect(try baseline.readPage(6) == workload.items(page: 6))
    }

    @Test func theFloorsOffsetQueryFindsTheSamePageAsItsKeyedQuery() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let floor = try #require(try filled(.rawSQLite, in: directory) as? RawSQLiteBaseline)
        for page in [1, 11, 20] {
            #expect(try floor.readPageWithOffset(page) == workload.items(page: page))
            #expect(try floor.readRowsWithOffset(page) == floor.readRows(page))
        }
    }

    @Test func theSuiteMeasuresEveryBaselineOncePerRun() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let suite = BaselineSuite(
            workload: workload, settings: MeasurementSettings(rounds: 3, warmup: 1), synchronous: .normal,
            directory: directory.url,
            progress: Progress(isEnabled: false))
        let first = try suite.measurements(.readPage)
        #expect(Set(first.keys) == Set(BaselineKind.allCases))
        #expect(try suite.measurement(.readPage, of: .rowPerPage).samples == first[.rowPerPage]?.samples)
        let fastest = try suite.fastest(.readPage)
        #expect(first.values.allSatisfy { $0.median >= fastest.measurement.median })
    }

    @Test func aSubjectMeasuredAlongsideTheBaselinesGetsItsOwnTimings() throws {
        let directory = try TemporaryDirectory()
        defer { directory.remove() }
        let suite = BaselineSuite(
            workload: workload, settings: MeasurementSettings(rounds: 4, warmup: 1), synchronous: .normal,
            directory: directory.url,
            progress: Progress(isEnabled: false))
        var rounds: [Int] = []
        let measured = try suite.measureAlongside(.updateItem) { rounds.append($0) }
        #expect(rounds == [0, 1, 2, 3, 4])
        #expect(measured.subject.samples.count == 4)
        #expect(Set(measured.baselines.keys) == Set(BaselineKind.allCases))
    }
}
