/** Minimal types for the parts of `density-clustering` 1.3 that the A-MemGuard baseline uses. */
declare module 'density-clustering' {
  class DBSCAN {
    constructor();
    /** Cluster ids are array positions; each cluster lists point indices. `noise` may overlap clusters. */
    run<T>(dataset: T[], epsilon: number, minPts: number, distance: (a: T, b: T) => number): number[][];
    noise: number[];
  }
  const clustering: { DBSCAN: typeof DBSCAN };
  export default clustering;
}
