// One JSON file per section, so that features can add their texts without touching each other's files.
import common from './common.json';
import nav from './nav.json';
import landing from './landing.json';
import notFound from './notFound.json';
import auth from './auth.json';
import toasts from './toasts.json';
import errors from './errors.json';
import validation from './validation.json';
import files from './files.json';
import dashboard from './dashboard.json';
import marketplace from './marketplace.json';
import player from './player.json';
import playlist from './playlist.json';
import points from './points.json';
import settings from './settings.json';
import screens from './screens.json';
import fleet from './fleet.json';
import alerts from './alerts.json';
import workspace from './workspace.json';
import approvals from './approvals.json';

export default {
  common,
  nav,
  landing,
  notFound,
  auth,
  toasts,
  errors,
  validation,
  files,
  dashboard,
  marketplace,
  player,
  playlist,
  points,
  settings,
  screens,
  fleet,
  alerts,
  workspace,
  approvals,
};
