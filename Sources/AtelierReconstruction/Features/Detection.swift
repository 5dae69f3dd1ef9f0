/// A refined scale-space extremum, in the sample grid of its octave (sample centres at
/// integers), before orientation assignment.
struct Detection: Sendable, Equatable {
    /// Position of the octave in the extractor's list (0 for the first octave, whatever its
    /// index).
    var octaveSlot: Int
    /// Refined position and DoG level (fractional), in the octave's samples and levels.
    var x: Float
    var y: Float
    var layer: Float
    /// The DoG value interpolated at the refined position (intensities in [0, 1]): negative at
    /// the centre of a blob brighter than its surround, positive for a darker one.
    var response: Float
    /// The sample the refinement converged on; two candidates that converge on the same sample
    /// are the same extremum.
    var sampleX: Int32
    var sampleY: Int32
    var sampleLayer: Int32
}
