import { dashboardUrl } from './standalone';

describe('the address alert links point at (DASHBOARD_URL) under npm start', () => {
  it("is this system's own console: the public address, or else the address the gateway listens on", () => {
    expect(dashboardUrl({})).toBe('http://localhost:3000');
    expect(dashboardUrl({ HOST: '0.0.0.0', PORT: '8080' })).toBe('http://localhost:8080');
    expect(dashboardUrl({ HOST: '127.0.0.1', PORT: '8080' })).toBe('http://127.0.0.1:8080');
    expect(dashboardUrl({ PUBLIC_URL: 'https://vigil.example.com/', PORT: '8080' })).toBe('https://vigil.example.com');
  });

  it('keeps an explicit DASHBOARD_URL, and leaves it to delivery when the port is picked at bind time', () => {
    expect(dashboardUrl({ DASHBOARD_URL: 'https://dash.example.com', PUBLIC_URL: 'https://vigil.example.com' })).toBe('https://dash.example.com');
    expect(dashboardUrl({ PORT: '0' })).toBeUndefined();
  });
});
