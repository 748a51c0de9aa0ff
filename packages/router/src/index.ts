// The routing API of Pagecast's front ends: the part of react-router they use, and nothing else.
//
// Why a package of re-exports: a module shared through Module Federation is built whole, since the bundler cannot
// know what a remote deployed later will import from it. Shared as itself, react-router was 205 KB of minified
// script on every first screen, the landing page included, and its evaluation alone was about 100 ms of the mobile
// Lighthouse run's blocking time. Shared through this module, it is built with only what is listed here.
//
// Every front end imports routing from '@pagecast/router', never from 'react-router' (biome's noRestrictedImports
// says so): this module is the federation singleton, so one router context spans the shell and its remotes. A remote
// that needs more of react-router adds the export here; the host and remotes must then be deployed with the same
// list, as with any change to a shared singleton's API.
export {
  BrowserRouter,
  Link,
  MemoryRouter,
  Navigate,
  NavLink,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useSearchParams,
} from 'react-router';
export type { LinkProps, NavLinkProps, NavigateFunction, SetURLSearchParams } from 'react-router';
