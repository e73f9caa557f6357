import { apiDescription, describedPaths } from './api-description';

describe('the paths the gateway matches requests against', () => {
  it("when the gateway starts without building the description, then it matches exactly the description's paths, in its order", () => {
    expect(describedPaths()).toEqual(Object.keys(apiDescription('2026.01.01').paths as Record<string, unknown>));
  });
});
